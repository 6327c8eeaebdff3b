package import Foundation
import NotibaseCore
package import NotibaseExtension
@preconcurrency import UserNotificationsShim

/// A simulated iPhone with the app installed: its own notification center, the Notibase
/// extension (the real one) and a directory the two share, as an App Group would be.
package final class SimulatedIPhone: Sendable {
    /// A name for logs and the demo's output.
    package let name: String
    /// Its APNs device token (hexadecimal).
    package let token: String
    /// The simulated system: categories, delivered notifications, the person tapping.
    package let device: SimulatedDevice
    /// What the app's extension is configured with (receipt endpoint, shared directory, …); a
    /// change applies to the next notification.
    package var extensionConfiguration: ExtensionConfiguration {
        get { configuration.withLock { $0 } }
        set { configuration.withLock { $0 = newValue } }
    }
    private let configuration: Locked<ExtensionConfiguration>
    /// The App Group directory shared by the app and the extension.
    package let sharedDirectory: URL

    private let drawnLog = Locked([DrawnNotification]())

    init(name: String, token: String, receiptEndpoint: ReceiptEndpoint?, appCategories: [AppCategory], images: ImageRoutes, directory: URL) {
        self.name = name
        self.token = token
        sharedDirectory = directory
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        device = SimulatedDevice(name: name, attachmentStoreDirectory: directory.appendingPathComponent("attachments"))
        device.center.setNotificationCategories(Set(appCategories.map { $0.makeCategory() }))
        var configuration = ExtensionConfiguration()
        configuration.receiptEndpoint = receiptEndpoint
        configuration.sharedDirectory = directory
        configuration.imagePolicy = ImageDownloadPolicy(allowsLoopbackHTTP: true, directory: directory.appendingPathComponent("downloads"))
        self.configuration = Locked(configuration)
        self.images = images
    }

    private let images: ImageRoutes

    /// Delivers an APNs payload as iOS would: through the Notibase extension, then drawn.
    @discardableResult
    func receive(payload: [AnyHashable: Any], identifier: String = UUID().uuidString) async -> DrawnNotification {
        let service = FleetNotificationService(configuration: extensionConfiguration, images: images)
        let drawn = await device.deliver(payload: payload, identifier: identifier, to: service)
        drawnLog.withLock { $0.append(drawn) }
        return drawn
    }

    /// A silent background push, as iOS hands it to the app's delegate: nothing drawn, the body
    /// kept for the app (``backgroundPushes``).
    func receiveInBackground(body: [UInt8]) {
        backgroundLog.withLock { $0.append(body) }
    }

    /// The bodies of the silent background pushes received so far, in order: what
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` would get as `userInfo`.
    package var backgroundPushes: [[UInt8]] {
        backgroundLog.withLock { $0 }
    }

    private let backgroundLog = Locked([[UInt8]]())

    /// Everything drawn so far, in order.
    package var drawn: [DrawnNotification] {
        drawnLog.withLock { $0 }
    }
}

/// How the simulated devices reach image hosts: `https://<host>/…` is fetched from a local http
/// server instead (a simulated phone cannot trust a made-up certificate authority on Linux, and
/// the server only accepts https images, as iOS only loads them).
package struct ImageRoutes: Sendable {
    /// Host name → local base URL (`http://127.0.0.1:8123`).
    package var routes: [String: String]

    /// Routes from a table.
    package init(_ routes: [String: String] = [:]) {
        self.routes = routes
    }

    func fetcher(_ downloader: ImageDownloader) -> any ImageFetching {
        RoutedFetcher(routes: routes, downloader: downloader)
    }

    struct RoutedFetcher: ImageFetching {
        let routes: [String: String]
        let downloader: ImageDownloader

        func fetch(_ url: String, timeout: Duration) async -> ImageFetchResult {
            guard let parsed = URL(string: url), parsed.scheme == "https", let host = parsed.host, let base = routes[host] else {
                return await downloader.fetch(url, timeout: timeout)
            }
            var local = base + parsed.path
            if let query = parsed.query { local += "?" + query }
            return await downloader.fetch(local, timeout: timeout)
        }
    }
}
