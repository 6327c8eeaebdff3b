import Foundation
import NotibaseCore
import NotibaseExtension

/// A simulated Android phone with the app installed: it builds the notification from the FCM data
/// message as an app's messaging service would (title, body, at most 3 action buttons, the image)
/// and reports what it drew with a rendered receipt. The image is fetched as the Android SDK
/// fetches it (https with a host, within its deadline); one that cannot be fetched is drawn
/// without, and the receipt says why, as the SDK's does.
package final class SimulatedAndroid: Sendable {
    /// A name for logs and the demo's output.
    package let name: String
    /// Its FCM registration token.
    package let token: String
    private let receipts: (any ReceiptPosting)?
    private let images: any ImageFetching
    private let drawnLog = Locked([AndroidNotification]())

    /// How long the Android SDK waits for an image in all (`ImageLimits.DEADLINE_MILLIS`).
    static let imageDeadline = Duration.seconds(8)

    init(name: String, token: String, receiptEndpoint: ReceiptEndpoint?, images: ImageRoutes, directory: URL) {
        self.name = name
        self.token = token
        receipts = receiptEndpoint.map(HTTPReceiptPoster.init(endpoint:))
        self.images = images.fetcher(ImageDownloader(policy: ImageDownloadPolicy(allowsLoopbackHTTP: true, directory: directory)))
    }

    /// Builds the notification from an FCM message body and reports it; a silent background push
    /// (`nb_background`) is drawn by nobody: it is kept for the app and reported `received`, as
    /// the SDK does, and the answer is nil.
    @discardableResult
    package func receive(fcmBody: [UInt8]) async -> AndroidNotification? {
        let start = ContinuousClock.now
        let message = (try? JSONDecoder().decode(FCMEnvelope.self, from: Data(fcmBody)))?.message
        let data = message?.data ?? [:]
        if data[PayloadKey.background] == "1" {
            backgroundLog.withLock { $0.append(data.filter { !$0.key.hasPrefix("nb_") }) }
            if let receipts, let deliveryID = data[PayloadKey.delivery] {
                let receipt = Receipt(
                    id: UUID().uuidString.lowercased(), deliveryID: deliveryID, messageID: data[PayloadKey.message], event: .received,
                    occurredAt: Date(), signature: data[PayloadKey.signature])
                _ = await receipts.send(receipt, timeout: .seconds(5))
            }
            return nil
        }
        let payload = NotificationPayload(userInfo: ["aps": ["alert": ["title": data["nb_title"] ?? "", "body": data["nb_body"] ?? ""]],
                                                     PayloadKey.buttons: data[PayloadKey.buttons] ?? "[]"])
        let buttons = Array(payload.buttons.prefix(Platform.android.maximumButtons))
        let (image, imageFailure) = await fetchImage(data[PayloadKey.image])
        let notification = AndroidNotification(
            title: data["nb_title"] ?? "", body: data["nb_body"] ?? "", buttons: buttons.map(\.text), buttonIDs: buttons.map(\.id),
            image: image, imageFailure: imageFailure)
        drawnLog.withLock { $0.append(notification) }
        if let receipts, let deliveryID = data[PayloadKey.delivery] {
            let report = RenderReport(
                categoryID: nil, buttons: notification.buttonIDs, imageAttached: notification.image != nil, imageFailure: imageFailure,
                completion: .complete, elapsedMilliseconds: Int((ContinuousClock.now - start).timeInterval * 1000))
            let receipt = Receipt(
                id: UUID().uuidString.lowercased(), deliveryID: deliveryID, messageID: data[PayloadKey.message], event: .rendered,
                occurredAt: Date(), render: report, signature: data[PayloadKey.signature])
            _ = await receipts.send(receipt, timeout: .seconds(5))
        }
        return notification
    }

    /// The image as the SDK draws it: its URL once fetched, or nil and why not (the SDK's words for
    /// a URL it refuses; the downloader's for a fetch that failed).
    private func fetchImage(_ url: String?) async -> (image: String?, failure: String?) {
        guard let url else { return (nil, nil) }
        guard Self.httpsImage(url) != nil else { return (nil, "the image URL is not https with a host") }
        switch await images.fetch(url, timeout: Self.imageDeadline) {
        case .downloaded(let file, _, _):
            try? FileManager.default.removeItem(at: file)
            return (url, nil)
        case .failed(let reason):
            return (nil, reason)
        }
    }

    /// The image URL when the Android SDK would load it (https with a host, as `android/notibase`'s
    /// `Links.isHTTPSWithHost`), else nil: the SDK draws such a notification without the picture.
    static func httpsImage(_ url: String) -> String? {
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "https", let host = parsed.host, !host.isEmpty else { return nil }
        return url
    }

    /// Everything drawn so far, in order.
    package var drawn: [AndroidNotification] {
        drawnLog.withLock { $0 }
    }

    /// The custom data of each silent background push received so far, in order: what the app's
    /// `BackgroundPushListener` got.
    package var backgroundPushes: [[String: String]] {
        backgroundLog.withLock { $0 }
    }

    private let backgroundLog = Locked([[String: String]]())

    private struct FCMEnvelope: Decodable {
        struct Message: Decodable { var data: [String: String]? }
        var message: Message
    }
}

/// What an Android app draws from a Notibase data message.
package struct AndroidNotification: Sendable, Hashable, Codable {
    package var title: String
    package var body: String
    /// The button labels, at most 3.
    package var buttons: [String]
    /// The button identifiers, in the same order.
    package var buttonIDs: [String]
    /// The image URL the app drew as a big picture (nil: none, or it could not be fetched).
    package var image: String?
    /// Why the notification went without the image it named, as its receipt says.
    package var imageFailure: String? = nil
}

extension Duration {
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
