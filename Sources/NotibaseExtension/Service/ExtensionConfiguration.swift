import Foundation
import NotibaseCore

/// How the Notibase extension behaves: its budget, the category cap, the download policy and
/// where render reports go.
public struct ExtensionConfiguration: Sendable {
    /// How long the extension works before handing back the best content so far. iOS allows about
    /// 30 seconds; the default leaves a margin.
    public var deadline: Duration = .seconds(25)
    /// How long to wait for the system to answer a category read.
    public var categoryReadTimeout: Duration = .seconds(5)
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

    /// Reads the configuration from the extension's Info.plist: `NotibaseServerURL`,
    /// `NotibaseClientKey`, `NotibaseAppGroup` (an App Group identifier) and
    /// `NotibaseCategoryCapacity`. Missing keys keep the defaults.
    public static func fromBundle(_ bundle: Bundle = .main) -> ExtensionConfiguration {
        var configuration = ExtensionConfiguration()
        let info = bundle.infoDictionary ?? [:]
        if let server = (info["NotibaseServerURL"] as? String).flatMap(URL.init(string:)), let key = info["NotibaseClientKey"] as? String {
            configuration.receiptEndpoint = ReceiptEndpoint(serverURL: server, clientKey: key)
        }
        if let capacity = info["NotibaseCategoryCapacity"] as? Int { configuration.categoryCapacity = capacity }
        #if canImport(Darwin)
        if let group = info["NotibaseAppGroup"] as? String {
            configuration.sharedDirectory = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group)
        }
        #endif
        return configuration
    }
}
