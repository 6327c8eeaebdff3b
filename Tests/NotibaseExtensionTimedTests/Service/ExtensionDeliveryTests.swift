import Foundation
import Testing
import NotibaseCore
import NotibaseTestSupport
@preconcurrency import UserNotificationsShim
@testable import NotibaseExtension
@testable import NotibaseExtensionTestSupport

/// The extension as iOS runs it: on a simulated device that enforces the time budget, counts
/// content handler calls and draws what iOS would.
@Suite("The extension on a simulated device")
struct ExtensionDeliveryTests {
    let files = TemporaryDirectory("notibase-extension")
    let server = ImageServer.shared

    func device(budget: Duration = .seconds(30), latency: SimulatedLatency = .fixed(.milliseconds(2))) -> SimulatedDevice {
        let device = SimulatedDevice(name: "iPhone")
        device.center.setNotificationCategories(appCategories())
        device.readLatency = latency
        device.serviceExtensionTimeBudget = budget
        device.expirationGracePeriod = .milliseconds(500)
        // Every delivery here also checks that the extension holds no lock in the App Group when
        // it may be suspended.
        device.sharedContainers = [files.url]
        // And, as on iOS, a category write takes a moment to be what the system reads (the app's
        // categories above were registered before).
        device.categoryWriteLatency = .random(in: .milliseconds(1) ... .milliseconds(10), seed: 5)
        return device
    }

    func service(deadline: Duration = .seconds(5), poster: RecordingReceiptPoster? = nil) -> TestNotificationService {
        TestNotificationService(deadline: deadline, directory: files.url, poster: poster)
    }

    @Test func buttonsAndImageAreDrawnAndReported() async throws {
        let device = device()
        let poster = RecordingReceiptPoster()
        let message = Message(
            title: "Order shipped", body: "Arriving Thursday",
            buttons: [Button(id: "track", text: "Track order", url: "shop://track"), Button(id: "cancel", text: "Cancel", options: [.destructive])],
            imageURL: server.url("/img/parcel?kind=jpeg&size=40000"))
        let drawn = await device.deliver(payload: apnsPayload(message, deliveryID: "d-1"), to: service(poster: poster))
        #expect(drawn.contentSource == .serviceExtension)
        #expect(drawn.contentHandlerCallCount == 1)
        #expect(drawn.violations.isEmpty, "\(drawn.violations)")
        #expect(drawn.buttons.map(\.identifier) == ["track", "cancel"])
        #expect(drawn.buttons.map(\.title) == ["Track order", "Cancel"])
        #expect(drawn.buttons[1].options == [.destructive])
        #expect(drawn.attachments.map(\.type) == ["public.jpeg"])
        #expect(drawn.attachments.first?.fileSize == 40000)
        #expect(await registeredIdentifiers(device).isSuperset(of: ["INVITATION", "CHAT"]))

        try await waitUntil { poster.receipts.withLock { !$0.isEmpty } }
        let receipt = try #require(poster.receipts.withLock { $0.first })
        #expect(receipt.deliveryID == "d-1" && receipt.messageID == "msg_test" && receipt.event == .rendered)
        #expect(receipt.render?.buttons == ["track", "cancel"])
        #expect(receipt.render?.categoryID == CategoryIdentifier.derive(from: message.buttons))
        #expect(receipt.render?.imageAttached == true)
        #expect(receipt.render?.completion == .complete)
    }

    /// The fourth bug: a downloaded file without an extension is silently refused by
    /// UNNotificationAttachment. Ours gets the extension of the type it found, and the hint.
    @Test func anImageURLWithoutExtensionIsStillAttached() async throws {
        // The naive way: the bytes saved under a name with no extension.
        let naiveFile = files.url.appendingPathComponent("download-\(UUID().uuidString)")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0]).write(to: naiveFile)
        #expect(throws: (any Error).self) { try UNNotificationAttachment(identifier: "img", url: naiveFile, options: nil) }

        let device = device()
        let message = Message(title: "Photo", imageURL: server.url("/img/abc123?kind=jpeg&ctype=application/octet-stream"))
        let drawn = await device.deliver(payload: apnsPayload(message), to: service())
        #expect(drawn.attachments.map(\.type) == ["public.jpeg"])
        #expect(drawn.droppedAttachments.isEmpty)
    }

    /// The fifth bug: a download that fails or hangs must not cost the notification its buttons,
    /// and the handler is called once.
    @Test(arguments: ["/hang", "/status/404", "/img/x?kind=webp", "/loop"])
    func aFailedImageStillShowsTheButtons(path: String) async throws {
        let device = device()
        let poster = RecordingReceiptPoster()
        let message = Message(title: "T", body: "B", buttons: [Button(id: "ok", text: "OK")], imageURL: server.url(path))
        // A deadline long enough for a loaded machine to register the category first.
        let drawn = await device.deliver(payload: apnsPayload(message), to: service(deadline: .seconds(3), poster: poster))
        #expect(drawn.contentSource == .serviceExtension)
        #expect(drawn.contentHandlerCallCount == 1)
        #expect(drawn.violations.isEmpty, "\(drawn.violations)")
        #expect(drawn.buttons.map(\.identifier) == ["ok"])
        #expect(drawn.attachments.isEmpty)
        try await waitUntil { poster.receipts.withLock { !$0.isEmpty } }
        let report = try #require(poster.receipts.withLock { $0.first?.render })
        #expect(report.imageAttached == false)
        #expect(report.imageFailure != nil)
        #expect(report.buttons == ["ok"], "\(report)")
    }

    /// When iOS's budget runs out first, `serviceExtensionTimeWillExpire` hands back the best
    /// content so far: the buttons are registered, the image is not there yet.
    @Test func timeWillExpireHandsBackTheBestSoFar() async throws {
        let device = device(budget: .seconds(2))
        let poster = RecordingReceiptPoster()
        let message = Message(title: "T", buttons: [Button(id: "ok", text: "OK")], imageURL: server.url("/hang"))
        let drawn = await device.deliver(payload: apnsPayload(message), to: service(deadline: .seconds(20), poster: poster))
        #expect(drawn.serviceExtensionTimeWillExpireCalled)
        #expect(drawn.contentSource == .serviceExtension)
        #expect(drawn.contentHandlerCallCount == 1)
        #expect(drawn.violations.isEmpty, "\(drawn.violations)")
        #expect(drawn.buttons.map(\.identifier) == ["ok"])
        try await waitUntil { poster.receipts.withLock { !$0.isEmpty } }
        let report = try #require(poster.receipts.withLock { $0.first?.render })
        #expect(report.completion == .timeWillExpire)
        #expect(report.imageFailure?.contains("still downloading") == true)
    }

    @Test func theAppsOwnCategoryIsLeftAlone() async {
        let device = device()
        let before = await registeredIdentifiers(device)
        let drawn = await device.deliver(
            payload: ["aps": ["alert": ["title": "Dinner?"], "category": "INVITATION", "mutable-content": 1]], to: service())
        #expect(drawn.categoryIdentifier == "INVITATION")
        #expect(drawn.buttons.map(\.identifier) == ["accept"])
        #expect(await registeredIdentifiers(device) == before)
    }

    @Test func withoutMutableContentTheExtensionNeverRuns() async {
        let device = device()
        var payload = apnsPayload(Message(title: "T", buttons: [Button(id: "ok", text: "OK")]))
        var aps = payload["aps"] as! [String: Any]
        aps["mutable-content"] = nil
        payload["aps"] = aps
        let drawn = await device.deliver(payload: payload, to: service())
        #expect(drawn.contentReason == .mutableContentNotSet)
        #expect(drawn.buttons.isEmpty, "nothing registered the category, so iOS draws no buttons")
    }
}

/// The load test of the serial section. It runs in the timed pass, beside the suites above, whose
/// time budgets a thousand deliveries at once eat into: its place is the load pass, once its device
/// and service are in NotibaseExtensionTestSupport (decision 0035, 2026-12-07).
@Suite("A thousand deliveries at once")
struct ConcurrentDeliveryStressTests {
    let base = ExtensionDeliveryTests()

    /// 1,000 notifications at once, 200 distinct button sets, random read latency: each is drawn
    /// with its own buttons, none is lost, and the app's categories stay. The naive extension,
    /// under the same load, loses buttons.
    @Test func aThousandConcurrentDeliveries() async {
        let sets = distinctButtonSets(200)
        let payloads = (0..<1000).map { index in apnsPayload(Message(title: "N\(index)", buttons: sets[index % 200])) }

        let device = base.device(latency: .random(in: .zero ... .milliseconds(2), seed: 42))
        device.contentHandlerSettlePeriod = .zero
        let drawn = await deliverAll(payloads, to: device) { base.service(deadline: .seconds(25)) }
        var wrong = 0
        for (index, notification) in drawn.enumerated() where notification.buttons.map(\.identifier) != sets[index % 200].map(\.id) {
            wrong += 1
        }
        #expect(wrong == 0, "\(wrong) of 1000 notifications were drawn without their own buttons")
        #expect(drawn.allSatisfy { $0.contentHandlerCallCount == 1 })
        #expect(await registeredIdentifiers(device).isSuperset(of: ["INVITATION", "CHAT"]))

        let naiveDevice = base.device(latency: .random(in: .zero ... .milliseconds(2), seed: 42))
        naiveDevice.contentHandlerSettlePeriod = .zero
        let naive = await deliverAll(payloads, to: naiveDevice) { NaiveNotificationService() }
        let naiveWrong = naive.enumerated().filter { $1.buttons.map(\.identifier) != sets[$0 % 200].map(\.id) }.count
        #expect(naiveWrong > 0, "the unserialised read-merge-write is expected to lose categories")
    }

    func deliverAll(_ payloads: [[AnyHashable: Any]], to device: SimulatedDevice, make: @escaping @Sendable () -> UNNotificationServiceExtension) async -> [DrawnNotification] {
        let boxed = UncheckedSendable(payloads)
        return await withTaskGroup(of: (Int, DrawnNotification).self) { group in
            for index in boxed.value.indices {
                group.addTask {
                    (index, await device.deliver(payload: boxed.value[index], identifier: "n\(index)", to: make()))
                }
            }
            var drawn = [DrawnNotification?](repeating: nil, count: payloads.count)
            for await (index, notification) in group { drawn[index] = notification }
            return drawn.map { $0! }
        }
    }
}

@Suite("The receipt outbox")
struct ReceiptOutboxTests {
    @Test func keepsReceiptsUntilSentAndStaysBounded() async throws {
        let files = TemporaryDirectory("notibase-outbox")
        let outbox = ReceiptOutbox(shared: files.url)
        let receipts = (0..<3).map { Receipt(id: "r\($0)", deliveryID: "d\($0)", event: .opened, occurredAt: Date(timeIntervalSince1970: 1_800_000_000 + Double($0))) }
        for receipt in receipts { outbox.add(receipt) }
        outbox.add(receipts[0])  // the same receipt twice is one file
        #expect(outbox.pending().map(\.id) == ["r0", "r1", "r2"])

        let poster = RecordingReceiptPoster()
        #expect(await outbox.flush(with: poster) == 3)
        #expect(outbox.pending().isEmpty)
        #expect(poster.receipts.withLock { $0.map(\.id) } == ["r0", "r1", "r2"])

        for index in 0..<(ReceiptOutbox.capacity + 20) {
            outbox.add(Receipt(id: "bulk\(index)", deliveryID: "d", event: .opened, occurredAt: Date()))
        }
        outbox.trim()
        #expect(outbox.pending().count == ReceiptOutbox.capacity)
    }

    @Test func aTornFileIsSkippedNotSent() async throws {
        let files = TemporaryDirectory("notibase-outbox")
        let outbox = ReceiptOutbox(shared: files.url)
        try FileManager.default.createDirectory(at: outbox.directory, withIntermediateDirectories: true)
        try Data(#"{"id":"half"#.utf8).write(to: outbox.directory.appendingPathComponent("half.receipt.json"))
        outbox.add(Receipt(id: "whole", deliveryID: "d", event: .opened, occurredAt: Date()))
        #expect(outbox.pending().map(\.id) == ["whole"])
    }
}
