import Foundation
import Testing
import NotibaseCore
import NotibaseTestSupport
import NotibaseExtension
@preconcurrency import UserNotificationsShim
@testable import Notibase

/// The app and its extension are two processes writing one system set. The app's categories and
/// every notification's buttons must both survive.
@Suite("App categories alongside the extension's")
struct AppCategoriesTests {
    let shared = TemporaryDirectory("notibase-app-group")

    func client(_ device: SimulatedDevice) -> NotibaseClient {
        var configuration = NotibaseConfiguration(
            serverURL: URL(string: "http://127.0.0.1:9")!, clientKey: "nb_client_test", sharedDirectory: shared.url,
            stateDirectory: shared.url.appendingPathComponent("app-state"))
        configuration.initialRetryDelay = .seconds(60)
        return NotibaseClient(configuration: configuration, center: device.center)
    }

    func appSet(_ generation: Int) -> Set<UNNotificationCategory> {
        [
            UNNotificationCategory(identifier: "INVITATION", actions: [UNNotificationAction(identifier: "accept-\(generation)", title: "Accept")],
                                   intentIdentifiers: []),
            UNNotificationCategory(identifier: "CHAT", actions: [], intentIdentifiers: []),
        ]
    }

    func payloads(_ count: Int) -> [[AnyHashable: Any]] {
        (0..<count).map { index in
            let buttons = [Button(id: "ok-\(index)", text: "OK \(index)")]
            let request = try! APNsRenderer(message: Message(title: "N\(index)", buttons: buttons), topic: nil).render(
                DeliveryContext(deviceToken: "00", deliveryID: UUID().uuidString.lowercased()))
            return try! JSONSerialization.jsonObject(with: Data(request.body)) as! [AnyHashable: Any]
        }
    }

    final class Service: NotibaseNotificationService {
        let shared: URL
        init(shared: URL) {
            self.shared = shared
            super.init()
        }
        override var configuration: ExtensionConfiguration {
            var configuration = ExtensionConfiguration()
            configuration.sharedDirectory = shared
            return configuration
        }
    }

    @Test func appCategoriesAndEveryNotificationsButtonsSurvive() async throws {
        let device = SimulatedDevice(name: "app and extension")
        device.readLatency = .random(in: .zero ... .milliseconds(3), seed: 11)
        device.contentHandlerSettlePeriod = .zero
        let client = client(device)
        let shared = shared.url
        let payloads = UncheckedSendable(payloads(100))
        let drawn = try await withThrowingTaskGroup(of: DrawnNotification?.self) { group in
            for index in 0..<100 {
                group.addTask { await device.deliver(payload: payloads.value[index], identifier: "n\(index)", to: Service(shared: shared)) }
            }
            for generation in 0..<10 {
                group.addTask {
                    try await client.setAppCategories(appSet(generation))
                    return nil
                }
            }
            return try await group.reduce(into: [DrawnNotification]()) { if let drawn = $1 { $0.append(drawn) } }
        }
        let lost = drawn.filter { $0.buttons.count != 1 }.count
        #expect(lost == 0, "\(lost) notifications were drawn without their button")
        let registered = await device.center.notificationCategories()
        #expect(registered.contains { $0.identifier == "INVITATION" } && registered.contains { $0.identifier == "CHAT" })
        #expect(registered.filter { CategoryIdentifier.isDerived($0.identifier) }.count == 100)
    }

    /// What the app SDK prevents: the app calling setNotificationCategories itself wipes the
    /// categories the extension registered.
    @Test func callingSetNotificationCategoriesDirectlyWipesNotibasesCategories() async throws {
        let device = SimulatedDevice(name: "naive app")
        device.readLatency = .immediate
        let payload = payloads(1)[0]
        let first = await device.deliver(payload: payload, identifier: "first", to: Service(shared: shared.url))
        #expect(first.buttons.count == 1)
        device.center.setNotificationCategories(appSet(0))
        let identifiers = await device.center.notificationCategories().map(\.identifier)
        #expect(!identifiers.contains { CategoryIdentifier.isDerived($0) }, "the direct call replaced the whole set")

        let safe = SimulatedDevice(name: "app using the SDK")
        safe.readLatency = .immediate
        _ = await safe.deliver(payload: payload, identifier: "first", to: Service(shared: shared.url))
        try await client(safe).setAppCategories(appSet(0))
        let kept = await safe.center.notificationCategories().map(\.identifier)
        #expect(kept.contains { CategoryIdentifier.isDerived($0) })
        #expect(Set(kept).isSuperset(of: ["INVITATION", "CHAT"]))
    }

    /// On iOS the set written is not instantly what the system reads: `setAppCategories` returns
    /// only once its write is visible, so a notification arriving right after keeps the app's
    /// categories.
    @Test func theAppsWriteIsVisibleBeforeSetAppCategoriesReturns() async throws {
        let device = SimulatedDevice(name: "slow registry")
        device.readLatency = .immediate
        device.categoryWriteLatency = .fixed(.milliseconds(100))
        try await client(device).setAppCategories(appSet(0))
        let drawn = await device.deliver(payload: payloads(1)[0], identifier: "right after", to: Service(shared: shared.url))
        #expect(drawn.buttons.count == 1)
        try await Task.sleep(for: .milliseconds(300))
        let identifiers = Set(await device.center.notificationCategories().map(\.identifier))
        #expect(identifiers.isSuperset(of: ["INVITATION", "CHAT"]), "\(identifiers)")
    }

    /// The app's locked section runs as a background task: when iOS says time is up while the app
    /// still holds the lock (here the system never answers), the lock is let go of at once, so the
    /// app is not suspended holding it, and nothing is written.
    @Test func anExpiredBackgroundTaskLetsGoOfTheLock() async throws {
        let device = SimulatedDevice(name: "hung, going to background")
        device.readLatency = .never
        let tasks = ManualBackgroundTasks()
        let writer = AppCategoryWriter(center: device.center, sharedDirectory: shared.url, readTimeout: .seconds(30), backgroundTasks: tasks)
        let categories = UncheckedSendable(appSet(0))
        Task { try? await writer.set(categories.value) }
        // The app holds the lock, waiting for the system: the extension cannot take it.
        let extensionSide = FileCategoryLock(directory: shared.url)
        try await waitUntil(timeout: .seconds(20)) {
            tasks.isRunning && FileManager.default.fileExists(atPath: extensionSide.file.path) && !extensionSide.tryOnce()
        }
        tasks.expire()
        // Let go of at once (the stuck read itself would last 30 s).
        let took = try await extensionSide.withLock(timeout: .seconds(5)) { () async throws(CategoryStoreError) -> Bool in true }
        #expect(took)
    }

    @Test func aReadThatNeverAnswersWritesNothing() async {
        let device = SimulatedDevice(name: "hung")
        device.center.setNotificationCategories(appSet(0))
        device.readLatency = .never
        var configuration = client(device).configuration
        configuration.categoryReadTimeout = .milliseconds(100)
        let client = NotibaseClient(configuration: configuration, center: device.center)
        await #expect(throws: CategoryStoreError.readTimedOut) { try await client.setAppCategories([]) }
        device.readLatency = .immediate
        #expect(Set(await device.center.notificationCategories().map(\.identifier)) == ["INVITATION", "CHAT"])
    }
}

/// Background tasks that iOS ends when the test says.
final class ManualBackgroundTasks: BackgroundTaskRunning {
    private struct State {
        var running = false
        var expired: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    var isRunning: Bool { state.withLock { $0.running } }

    /// iOS says time is up.
    func expire() {
        state.withLock { $0.expired }?()
    }

    func run<Result: Sendable>(
        named name: String, expired: @escaping @Sendable () -> Void, _ body: () async throws(CategoryStoreError) -> Result
    ) async throws(CategoryStoreError) -> Result {
        state.withLock { $0 = State(running: true, expired: expired) }
        defer { state.withLock { $0.running = false } }
        return try await body()
    }
}

extension FileCategoryLock {
    /// Whether the lock can be taken right now (taken and let go of at once).
    func tryOnce() -> Bool {
        let descriptor = open(file.path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(descriptor, LOCK_UN)
        return true
    }
}
