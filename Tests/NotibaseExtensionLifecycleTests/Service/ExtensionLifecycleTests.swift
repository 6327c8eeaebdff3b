import Foundation
import Testing
import NotibaseCore
import NotibaseTestSupport
@preconcurrency import UserNotificationsShim
@testable import NotibaseExtension
@testable import NotibaseExtensionTestSupport

/// What iOS does to the extension's process and instance that a kinder stand-in would hide.
/// Serialized: one test at a time, so that the memory a delivery adds is its own.
@Suite("The extension's process and instance, as iOS runs them", .serialized)
struct ExtensionLifecycleTests {
    let files = TemporaryDirectory("notibase-lifecycle")

    /// iOS may end the process the instant the content handler is called: the render report is
    /// in the outbox before that, and the next extension run posts it.
    @Test func aReportSurvivesAKillAtTheContentHandler() async throws {
        let shared = files.url.appendingPathComponent("group")
        let probe = Process()
        probe.executableURL = TestProducts.executable("ExtensionKillProbe")
        probe.arguments = [shared.path, "d-killed"]
        try probe.run()
        probe.waitUntilExit()
        #expect(probe.terminationReason == .uncaughtSignal && probe.terminationStatus == SIGKILL, "the probe was not killed")

        let pending = ReceiptOutbox(shared: shared).pending()
        #expect(pending.map(\.deliveryID) == ["d-killed"])
        #expect(pending.first?.render?.buttons == ["track"])

        // The next extension run posts its own report, then the one the killed run left.
        let device = SimulatedDevice(name: "iPhone")
        let poster = RecordingReceiptPoster()
        let service = TestNotificationService(directory: shared, poster: poster)
        let message = Message(title: "Next", buttons: [Button(id: "ok", text: "OK")])
        _ = await device.deliver(payload: apnsPayload(message, deliveryID: "d-next"), to: service)
        try await waitUntil { poster.receipts.withLock { $0.count >= 2 } }
        #expect(Set(poster.receipts.withLock { $0.map(\.deliveryID) }) == ["d-next", "d-killed"])
        #expect(ReceiptOutbox(shared: shared).pending().isEmpty)
    }

    /// On iOS the category set written is not instantly what the system reads: the extension reads
    /// it back before calling the content handler, so the notification is drawn with its buttons,
    /// and concurrent notifications keep each other's categories.
    @Test func aCategoryIsConfirmedBeforeTheNotificationIsShown() async throws {
        let device = SimulatedDevice(name: "iPhone")
        device.center.setNotificationCategories(appCategories())
        device.readLatency = .fixed(.milliseconds(2))
        device.categoryWriteLatency = .random(in: .milliseconds(40) ... .milliseconds(120), seed: 3)
        let service = UncheckedSendable(TestNotificationService(directory: files.url))
        let sets = distinctButtonSets(4)
        let drawn = await withTaskGroup(of: DrawnNotification.self) { group in
            for buttons in sets {
                group.addTask { await device.deliver(payload: apnsPayload(Message(title: "T", buttons: buttons)), to: service.value) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for notification in drawn {
            #expect(notification.buttons.count == 2, "\(notification.categoryIdentifier): \(notification.buttonsReason)")
        }
        try await Task.sleep(for: .milliseconds(300))
        let registered = await registeredIdentifiers(device)
        #expect(registered.isSuperset(of: Set(sets.map(CategoryIdentifier.derive(from:))).union(["INVITATION", "CHAT"])))
    }

    /// A write that never becomes visible: the content handler is still called (in time), and the
    /// render report says the category could not be confirmed.
    @Test func anUnconfirmedCategoryIsReported() async throws {
        let device = SimulatedDevice(name: "iPhone")
        device.categoryWriteLatency = .never
        let poster = RecordingReceiptPoster()
        let service = TestNotificationService(directory: files.url, poster: poster, confirmationTimeout: .milliseconds(200))
        let drawn = await device.deliver(payload: apnsPayload(Message(title: "T", buttons: [Button(id: "ok", text: "OK")])), to: service)
        #expect(drawn.contentSource == .serviceExtension && drawn.contentHandlerCallCount == 1)
        #expect(drawn.buttons.isEmpty)
        try await waitUntil { poster.receipts.withLock { !$0.isEmpty } }
        let render = try #require(poster.receipts.withLock { $0.first?.render })
        #expect(render.diagnostics.contains { $0.contains("could not be confirmed") }, "\(render.diagnostics)")
    }

    /// A registration still running when the deadline passes is abandoned: the lock shared with
    /// the app is free the moment the handler is called (iOS kills a process suspended holding a
    /// file lock in a shared container), and nothing is written late.
    @Test func noLockIsHeldOnceTheHandlerIsCalled() async throws {
        let shared = files.url.appendingPathComponent("group-lock")
        let device = SimulatedDevice(name: "hung registry")
        device.readLatency = .never  // the registration waits for the system, holding the lock
        device.sharedContainers = [shared]
        let poster = RecordingReceiptPoster()
        let service = TestNotificationService(deadline: .milliseconds(300), directory: shared, poster: poster)
        let drawn = await device.deliver(payload: apnsPayload(Message(title: "T", buttons: [Button(id: "ok", text: "OK")])), to: service)
        #expect(drawn.contentHandlerCallCount == 1)
        #expect(drawn.violations.isEmpty, "iOS kills a process suspended holding a lock in the App Group: \(drawn.violations)")
        // The app, another process, takes the lock at once.
        let app = FileCategoryLock(directory: shared)
        let took = try await app.withLock(timeout: .seconds(1)) { () async throws(CategoryStoreError) -> Bool in true }
        #expect(took)
        try await waitUntil { poster.receipts.withLock { !$0.isEmpty } }
        #expect(poster.receipts.withLock { $0.first?.render?.completion } == .deadline)
    }

    /// iOS gives a Notification Service Extension about 24 MB. The largest image iOS attaches
    /// (10 MB) is streamed to disk: the extension stays below the limit (measured here, a debug
    /// build on Linux's FoundationNetworking: 9–11 MB of growth; see docs/benchmarks.md).
    @Test func theLargestImageFitsTheMemoryBudget() async throws {
        let device = SimulatedDevice(name: "iPhone")
        device.serviceExtensionMemoryLimit = 24_000_000
        let message = Message(title: "Big", buttons: [Button(id: "ok", text: "OK")],
                              imageURL: ImageServer.shared.url("/img/max.jpg?kind=jpeg&size=10000000"))
        let drawn = await device.deliver(payload: apnsPayload(message), to: TestNotificationService(directory: files.url))
        #expect(drawn.violations.isEmpty && drawn.contentSource == .serviceExtension, "\(drawn.contentReason)")
        #expect(drawn.attachments.first?.fileSize == 10_000_000)
        let peak = try #require(drawn.serviceExtensionPeakMemoryGrowth)
        #expect(peak < 20_000_000, "the extension grew by \(peak) bytes")
    }

    /// An extension that holds the image in memory, decoded or not, grows past the budget: the
    /// stand-in kills it as iOS does, and the original is shown.
    @Test func anExtensionOverTheMemoryBudgetIsKilled() async throws {
        let device = SimulatedDevice(name: "iPhone")
        device.serviceExtensionMemoryLimit = 24_000_000
        let greedy = GreedyService()
        let drawn = await device.deliver(payload: apnsPayload(Message(title: "Big", buttons: [Button(id: "ok", text: "OK")])), to: greedy)
        #expect(drawn.contentSource == .original)
        #expect(drawn.contentReason == .serviceExtensionExceededMemoryLimit)
        #expect(drawn.violations == [.memoryLimitExceeded])
    }

    /// An HTML error page served as `image/jpeg`: no image (iOS would drop it), the buttons still
    /// drawn, and the render report says why.
    @Test func anErrorPageServedAsAnImageIsExplained() async throws {
        let device = SimulatedDevice(name: "iPhone")
        let poster = RecordingReceiptPoster()
        let message = Message(title: "Sale", buttons: [Button(id: "shop", text: "Shop")],
                              imageURL: ImageServer.shared.url("/img/banner.jpg?kind=html&ctype=image/jpeg"))
        let drawn = await device.deliver(payload: apnsPayload(message), to: TestNotificationService(directory: files.url, poster: poster))
        #expect(drawn.attachments.isEmpty && drawn.droppedAttachments.isEmpty)
        #expect(drawn.buttons.map(\.identifier) == ["shop"])
        try await waitUntil { poster.receipts.withLock { !$0.isEmpty } }
        let render = try #require(poster.receipts.withLock { $0.first?.render })
        #expect(render.imageAttached == false)
        #expect(render.imageFailure?.contains("the server called it image/jpeg, but its bytes are not an image") == true, "\(render.imageFailure ?? "")")
    }

    /// One instance, several notifications at once: `serviceExtensionTimeWillExpire` finishes
    /// every one still in progress, not only the latest.
    @Test func timeWillExpireFinishesEveryNotificationInProgress() async throws {
        let device = SimulatedDevice(name: "iPhone")
        // Budgets long enough for a loaded machine to have started all three and registered their
        // categories: what is tested is who finishes them.
        device.serviceExtensionTimeBudget = .milliseconds(1500)
        device.expirationGracePeriod = .seconds(1)
        // The image never arrives, and the extension's own deadline is far: only
        // serviceExtensionTimeWillExpire can finish these in time.
        let poster = RecordingReceiptPoster()
        let service = TestNotificationService(deadline: .seconds(20), directory: files.url, poster: poster, fetcher: HangingFetcher())
        let messages = (0..<3).map { index in
            Message(title: "Order \(index)", buttons: [Button(id: "track-\(index)", text: "Track")], imageURL: "https://images.invalid/\(index).jpg")
        }
        // One instance handed several notifications, from the system's threads, as iOS may.
        let shared = UncheckedSendable(service)
        let drawn = await withTaskGroup(of: DrawnNotification.self) { group in
            for message in messages {
                group.addTask { await device.deliver(payload: apnsPayload(message), to: shared.value) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(drawn.count == 3)
        for notification in drawn {
            #expect(notification.contentSource == .serviceExtension, "\(notification.title): \(notification.contentReason)")
            #expect(notification.contentHandlerCallCount == 1)
            #expect(notification.violations.isEmpty)
            #expect(notification.buttons.count == 1, "\(poster.receipts.withLock { $0.map { $0.render?.diagnostics ?? [] } })")
        }
    }
}

/// An image download that never ends (until cancelled).
struct HangingFetcher: ImageFetching {
    func fetch(_ url: String, timeout: Duration) async -> ImageFetchResult {
        try? await Task.sleep(for: .seconds(60))
        return .failed(reason: "cancelled")
    }
}

/// An extension that loads 40 MB into memory before calling its handler.
final class GreedyService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 40_000_000)
        for index in stride(from: 0, to: buffer.count, by: 4096) { buffer[index] = 1 }
        Thread.sleep(forTimeInterval: 0.3)
        withExtendedLifetime(buffer) { contentHandler(request.content) }
    }
}
