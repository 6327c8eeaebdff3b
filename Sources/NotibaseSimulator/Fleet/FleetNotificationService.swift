import NotibaseExtension

// Its own file with an internal import of NotibaseExtension: a subclass of the extension's
// NSObject-derived class in a file that has `package import NotibaseExtension` gets a vtable
// thunk that calls itself (Swift 6.3: "function call causes an infinite recursion").

/// The Notibase extension as the simulated app ships it.
final class FleetNotificationService: NotibaseNotificationService {
    let fleetConfiguration: ExtensionConfiguration
    let images: ImageRoutes

    init(configuration: ExtensionConfiguration, images: ImageRoutes) {
        fleetConfiguration = configuration
        self.images = images
        super.init()
    }

    override var configuration: ExtensionConfiguration { fleetConfiguration }

    override func makeImageFetcher(configuration: ExtensionConfiguration) -> any ImageFetching {
        images.fetcher(ImageDownloader(policy: configuration.imagePolicy))
    }
}
