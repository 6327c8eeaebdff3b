import NotibaseExtension

// Its own file with an internal import of NotibaseExtension: a subclass of the extension's
// NSObject-derived class in a file that has `package import NotibaseExtension` gets a vtable
// thunk that calls itself (Swift 6.3: "function call causes an infinite recursion").

/// The Notibase extension with the preview's configuration.
final class PreviewService: NotibaseNotificationService {
    let previewConfiguration: ExtensionConfiguration

    init(configuration: ExtensionConfiguration) {
        previewConfiguration = configuration
        super.init()
    }

    override var configuration: ExtensionConfiguration { previewConfiguration }
}
