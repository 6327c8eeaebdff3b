public import Foundation
public import NotibaseCore

/// How the Notibase extension behaves: its budget, the category cap, the download policy and
/// where render reports go.
public struct ExtensionConfiguration: Sendable {
    /// How long the extension works before handing back the best content so far. iOS allows about
    /// 30 seconds; the default leaves a margin.
    public var deadline: Duration = .seconds(25)
    /// How long to wait for the system to answer a category read.
    public var categoryReadTimeout: Duration = .seconds(5)
    /// How long a registration reads the category set back, waiting for its write to be visible,
    /// before it calls the content handler anyway (and says so in the render report).
    public var categoryConfirmationTimeout: Duration = .seconds(2)
    /// The most Notibase-owned categories kept registered when older ones can be evicted.
    public var categoryCapacity: Int = 64
    /// Categories used more recently than this are not evicted (their notification may not be on
    /// screen yet).
    public var categoryInFlightWindow: Duration = .seconds(60)
    /// What image downloads accept.
    public var imagePolicy = ImageDownloadPolicy()
    /// Where render reports are posted; nil posts none.
    public var receiptEndpoint: ReceiptEndpoint?
    /// How long posting a render report may take, after the content handler was called.
    public var receiptTimeout: Duration = .seconds(3)
    /// Called with each render report once the content handler was called (the report is posted
    /// to the server as well, when an endpoint is set).
    public var renderObserver: (@Sendable (RenderReport, NotificationPayload) -> Void)?
    /// A directory shared with the app (the App Group container), for the category ledger and lock;
    /// nil keeps them in the extension's own caches.
    public var sharedDirectory: URL?

    /// The defaults.
    public init() {}

    /// Reads the configuration from the extension's Info.plist: `NotibaseServerURL` (a string,
    /// https), `NotibaseClientKey` (a string), `NotibaseAppGroup` (a string: an App Group
    /// identifier) and `NotibaseCategoryCapacity` (a number). Missing keys keep the defaults. An App
    /// Group that names no container (the group is missing from the extension's entitlements) is
    /// logged and fails an assertion in debug builds: the extension then cannot share its receipts
    /// and category lock with the app.
    public static func fromBundle(_ bundle: Bundle = .main) -> ExtensionConfiguration {
        fromInfo(bundle.infoDictionary ?? [:], containerURL: appGroupContainer)
    }

    /// The container of an App Group, as the system resolves it (nil: none; always nil off Apple
    /// platforms).
    @Sendable
    package static func appGroupContainer(_ group: String) -> URL? {
        #if canImport(Darwin)
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)
        #else
        nil
        #endif
    }

    /// The configuration an Info.plist dictionary describes.
    static func fromInfo(_ info: [String: Any], containerURL: (String) -> URL?) -> ExtensionConfiguration {
        var configuration = ExtensionConfiguration()
        let serverValue = info["NotibaseServerURL"]
        let keyValue = info["NotibaseClientKey"]
        if let serverText = serverValue as? String, let server = URL(string: serverText), let key = keyValue as? String {
            configuration.receiptEndpoint = ReceiptEndpoint(serverURL: server, clientKey: key)
            if server.scheme?.lowercased() != "https" {
                SDKLog.error("NotibaseServerURL is not https; App Transport Security blocks it in the extension, so no render report arrives")
            }
        } else if serverValue != nil || keyValue != nil {
            SDKLog.misconfigured("NotibaseServerURL and NotibaseClientKey must both be strings in the extension's Info.plist; no render reports are sent")
        }
        let capacityValue = info["NotibaseCategoryCapacity"]
        // A number, or a number typed as a String in Xcode's plist editor.
        if let capacity = capacityValue as? Int ?? (capacityValue as? String).flatMap({ Int($0) }) {
            configuration.categoryCapacity = capacity
        } else if capacityValue != nil {
            SDKLog.misconfigured("NotibaseCategoryCapacity must be a number (<integer>); using \(configuration.categoryCapacity)")
        }
        switch info["NotibaseAppGroup"] {
        case nil: break
        case let group as String:
            if let container = containerURL(group) {
                configuration.sharedDirectory = container
            } else {
                SDKLog.misconfigured(
                    "the App Group \(group) (NotibaseAppGroup) has no container: add it to the extension's App Groups capability. "
                        + "Without it the extension cannot share receipts or the category lock with the app")
            }
        default: SDKLog.misconfigured("NotibaseAppGroup must be a string in the extension's Info.plist")
        }
        return configuration
    }
}
