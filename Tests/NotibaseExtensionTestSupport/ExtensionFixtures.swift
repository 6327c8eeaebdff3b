import Foundation
import NotibaseCore
import NotibaseTestSupport
@preconcurrency import UserNotificationsShim
@testable import NotibaseExtension

/// The payload the server would send for `message`, as iOS hands it to the extension. An image on
/// the local test server (plain http, which the server refuses) is swapped in after rendering.
func apnsPayload(_ message: Message, deliveryID: String = UUID().uuidString.lowercased()) -> [AnyHashable: Any] {
    var renderable = message
    if message.imageURL?.hasPrefix("http://") == true { renderable.imageURL = "https://images.invalid/placeholder.jpg" }
    let request = try! APNsRenderer(message: renderable, topic: "com.example.app").render(
        DeliveryContext(deviceToken: "00", messageID: "msg_test", deliveryID: deliveryID))
    var payload = try! JSONSerialization.jsonObject(with: Data(request.body)) as! [AnyHashable: Any]
    if let imageURL = message.imageURL { payload["nb_image"] = imageURL }
    return payload
}

/// `count` distinct button lists, two buttons each.
func distinctButtonSets(_ count: Int) -> [[Button]] {
    (0..<count).map { index in
        [Button(id: "accept-\(index)", text: "Accept \(index)"), Button(id: "decline-\(index)", text: "Decline", options: [.destructive])]
    }
}

/// Categories an app registers itself at launch.
func appCategories() -> Set<UNNotificationCategory> {
    [
        UNNotificationCategory(
            identifier: "INVITATION",
            actions: [UNNotificationAction(identifier: "accept", title: "Accept", options: [.foreground])],
            intentIdentifiers: [], hiddenPreviewsBodyPlaceholder: "Invitation", options: [.customDismissAction]),
        UNNotificationCategory(
            identifier: "CHAT", actions: [UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [],
                                                                         textInputButtonTitle: "Send", textInputPlaceholder: "…")],
            intentIdentifiers: []),
    ]
}

/// The identifiers registered on a device, read the way the system answers.
func registeredIdentifiers(_ device: SimulatedDevice) async -> Set<String> {
    let saved = device.readLatency
    device.readLatency = .immediate
    defer { device.readLatency = saved }
    return await device.withCurrent {
        let categories = await UNUserNotificationCenter.current().notificationCategories()
        return Set(categories.map(\.identifier))
    }
}

/// Receipts the extension posted.
final class RecordingReceiptPoster: ReceiptPosting {
    let receipts = Locked([Receipt]())
    func send(_ receipt: Receipt, timeout: Duration) async -> ReceiptDelivery {
        receipts.withLock { $0.append(receipt) }
        return .accepted
    }
}

/// The extension as an app ships it, with a test configuration: short deadline, plain http to
/// the local image server allowed, reports recorded.
final class TestNotificationService: NotibaseNotificationService {
    let testConfiguration: ExtensionConfiguration
    let poster: RecordingReceiptPoster?
    let fetcher: (any ImageFetching)?

    init(
        deadline: Duration = .seconds(5), directory: URL, poster: RecordingReceiptPoster? = nil, fetcher: (any ImageFetching)? = nil,
        inFlightWindow: Duration = .seconds(60), confirmationTimeout: Duration = .seconds(2)
    ) {
        var configuration = ExtensionConfiguration()
        configuration.categoryConfirmationTimeout = confirmationTimeout
        configuration.categoryInFlightWindow = inFlightWindow
        configuration.deadline = deadline
        configuration.imagePolicy = ImageDownloadPolicy(allowsLoopbackHTTP: true, directory: directory)
        configuration.sharedDirectory = directory
        configuration.receiptEndpoint = nil
        testConfiguration = configuration
        self.poster = poster
        self.fetcher = fetcher
        super.init()
    }

    override var configuration: ExtensionConfiguration { testConfiguration }

    override func makeReceiptPoster(configuration: ExtensionConfiguration) -> (any ReceiptPosting)? { poster }

    override func makeImageFetcher(configuration: ExtensionConfiguration) -> any ImageFetching {
        fetcher ?? super.makeImageFetcher(configuration: configuration)
    }
}

/// The seed article's extension, written the naive way: it reads the set, inserts its category
/// and writes the union back, but with nothing serialising concurrent deliveries. (With
/// `replaceSet`, it writes only its own category, as the very first version did.)
final class NaiveNotificationService: UNNotificationServiceExtension {
    let replaceSet: Bool

    init(replaceSet: Bool = false) {
        self.replaceSet = replaceSet
        super.init()
    }

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        let payload = NotificationPayload(userInfo: content.userInfo)
        guard !payload.buttons.isEmpty else { return contentHandler(content) }
        let identifier = CategoryIdentifier.derive(from: payload.buttons)
        let category = UNNotificationCategory.notibase(identifier: identifier, buttons: payload.buttons)
        content.categoryIdentifier = identifier
        let center = UNUserNotificationCenter.current()
        let handler = UncheckedSendable((content, contentHandler, center))
        let newCategory = UncheckedSendable(category)
        if replaceSet {
            center.setNotificationCategories([category])
            return contentHandler(content)
        }
        center.getNotificationCategories { existing in
            var merged = existing
            merged.insert(newCategory.value)
            handler.value.2.setNotificationCategories(merged)
            handler.value.1(handler.value.0)
        }
    }
}
