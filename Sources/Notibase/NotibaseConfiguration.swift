public import Foundation
import NotibaseCore
import NotibaseExtension

/// Where the app's Notibase server is and how the SDK behaves.
public struct NotibaseConfiguration: Sendable {
    /// The server, such as `https://push.example.com`.
    public var serverURL: URL
    /// The app's client key (`nb_client_…`): it can register this device and post receipts, nothing else.
    public var clientKey: String
    /// A directory shared with the Notibase extension (the App Group container): the receipt
    /// outbox, the category lock and ledger live there. Without one, the app keeps its own and
    /// cannot coordinate category writes with the extension.
    public var sharedDirectory: URL?
    /// Where the SDK keeps its own state (the pending registration); defaults to Application
    /// Support.
    public var stateDirectory: URL
    /// The app's version, sent with the registration.
    public var appVersion: String?
    /// First retry delay for the outbox; doubles up to `maximumRetryDelay`, with jitter.
    public var initialRetryDelay: Duration = .seconds(2)
    /// The longest wait between retries.
    public var maximumRetryDelay: Duration = .seconds(300)
    /// How long to wait for the system's category set before giving up (and writing nothing).
    public var categoryReadTimeout: Duration = .seconds(5)

    /// A configuration. `appGroup`, on iOS, is the App Group identifier shared with the extension.
    public init(serverURL: URL, clientKey: String, appGroup: String? = nil, sharedDirectory: URL? = nil, stateDirectory: URL? = nil) {
        self.serverURL = serverURL
        self.clientKey = clientKey
        self.sharedDirectory = Self.sharedDirectory(sharedDirectory, appGroup: appGroup, containerURL: ExtensionConfiguration.appGroupContainer)
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        self.stateDirectory = stateDirectory ?? support.appendingPathComponent("Notibase")
        self.appVersion = Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String
    }

    /// `explicit`, else the App Group's container. A group without a container (missing from the
    /// app's App Groups capability) is logged and fails an assertion in debug builds: the app then
    /// cannot coordinate with the extension.
    static func sharedDirectory(_ explicit: URL?, appGroup: String?, containerURL: (String) -> URL?) -> URL? {
        if let explicit { return explicit }
        guard let appGroup else { return nil }
        if let container = containerURL(appGroup) { return container }
        SDKLog.misconfigured(
            "the App Group \(appGroup) has no container: add it to the app's App Groups capability. "
                + "Without it the app cannot post the extension's receipts or share the category lock")
        return nil
    }

    /// The SDK's version, sent with the registration: `notibase-ios/` and `NotibaseVersion.current`.
    public static let sdkVersion = "notibase-ios/" + NotibaseVersion.current
}
