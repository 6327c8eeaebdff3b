#if canImport(NotibaseSimulator)
import Foundation
import NotibaseCore
import NotibaseExtension
import NotibaseSimulator
@preconcurrency import UserNotificationsShim

/// `notibase bench extension`: CPU per notification through the Notibase extension, network
/// excluded (parse the payload, derive the identifier, merge into 64 registered categories, call
/// the handler; no image, no render report), against the naive extension of the seed article in
/// the same run.
enum ExtensionBenchmark {
    static let benchmark = Benchmark(
        name: "extension",
        summary: "CPU per notification through the extension (no network), against the naive extension",
        usage: "notibase bench extension [--count N]   (default 20,000; build with -c release)",
        options: [.value("count")],
        run: { arguments, io in
            let count = try arguments.integer("count", default: 20_000, in: 1...10_000_000)
            await run(count: count, io: io)
            return 0
        })

    static func run(count: Int, io: TerminalIO) async {
        let sets = (0..<(count + 64)).map { index in
            [Button(id: "accept", text: "Accept \(index)"), Button(id: "decline", text: "Decline", options: [.destructive])]
        }
        let payloads = sets.map { buttons -> [AnyHashable: Any] in
            // Without receipt IDs: reporting (the outbox file and the post) is network work, left out.
            let request = try! APNsRenderer(
                message: Message(title: "Invitation", body: "Dinner on Friday?", buttons: buttons), topic: "com.example", includesReceiptIDs: false
            ).render(DeliveryContext(deviceToken: "00"))
            return try! JSONSerialization.jsonObject(with: Data(request.body)) as! [AnyHashable: Any]
        }
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("notibase-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }

        var configuration = ExtensionConfiguration()
        configuration.sharedDirectory = files
        configuration.categoryCapacity = 64
        configuration.categoryInFlightWindow = .zero
        let repeated = payloads.prefix(64).map { $0 }
        let harness = await measure(count: count, payloads: payloads) { NullBenchService() }
        let lines: [(String, Figures)] = [
            ("Notibase, new buttons, registry in process", await measure(count: count, payloads: payloads) {
                BenchService(configuration: configuration, direct: true)
            }),
            ("Notibase, known buttons, registry in process", await measure(count: count, payloads: repeated + repeated) {
                BenchService(configuration: configuration, direct: true)
            }),
            ("Notibase, new buttons, simulated system", await measure(count: count, payloads: payloads) {
                BenchService(configuration: configuration, direct: false)
            }),
            ("naive, new buttons, simulated system", await measure(count: count, payloads: payloads) { NaiveBenchService() }),
        ]
        var text = "extension benchmark: \(count) notifications, 2 buttons each, 64 categories registered, no image\n"
        text += "  " + "delivery harness alone (handler called at once)".padded(to: 50)
            + "\(format(harness.cpu)) µs CPU, \(format(harness.wall)) µs wall per notification\n"
        text += "  " + "".padded(to: 50) + "CPU above the harness, total CPU, wall\n"
        for (label, figures) in lines {
            text += "  " + label.padded(to: 50) + "\(format(figures.cpu - harness.cpu)) µs, \(format(figures.cpu)) µs, \(format(figures.wall)) µs\n"
        }
        text += "  in process: the category registry is a set in memory, so the figure is the extension's own work;\n"
        text += "  simulated system: reads answer on the stand-in's own thread, as iOS answers from its daemon.\n"
        io.writeOutput(text)
    }

    struct Figures {
        var cpu: Double
        var wall: Double
    }

    /// Runs the notifications one after another (as iOS does for one app) and returns per-notification
    /// CPU time of the whole process and wall time.
    static func measure(count: Int, payloads: [[AnyHashable: Any]], make: () -> UNNotificationServiceExtension) async -> Figures {
        let device = SimulatedDevice(name: "bench")
        device.readLatency = .immediate
        // 64 categories registered before the first notification.
        device.center.setNotificationCategories(Set(payloads.prefix(64).enumerated().map { index, _ in
            UNNotificationCategory.notibase(
                identifier: String(format: "nb_%016x", index), buttons: [Button(id: "a", text: "A")])
        }))
        let startCPU = processCPUTime()
        let start = ContinuousClock.now
        let offset = payloads.count > count ? 64 : 0
        for index in 0..<count {
            let request = UncheckedSendable(SimulatedPayload.request(from: payloads[(offset + index) % payloads.count], identifier: "b\(index)"))
            let service = UncheckedSendable(make())
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                device.withCurrent {
                    service.value.didReceive(request.value) { _ in continuation.resume() }
                }
            }
        }
        let wall = (ContinuousClock.now - start)
        let cpu = processCPUTime() - startCPU
        let (seconds, attoseconds) = wall.components
        return Figures(cpu: cpu * 1e6 / Double(count), wall: (Double(seconds) + Double(attoseconds) / 1e18) * 1e6 / Double(count))
    }

    static func processCPUTime() -> Double {
        var usage = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &usage)
        return Double(usage.tv_sec) + Double(usage.tv_nsec) / 1e9
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}

final class BenchService: NotibaseNotificationService {
    let benchConfiguration: ExtensionConfiguration
    let direct: Bool

    init(configuration: ExtensionConfiguration, direct: Bool) {
        benchConfiguration = configuration
        self.direct = direct
        super.init()
    }

    override var configuration: ExtensionConfiguration { benchConfiguration }

    override func makeCategoryStore(center: UNUserNotificationCenter) -> any CategoryStore {
        direct ? InProcessCategoryStore(categories: center) : super.makeCategoryStore(center: center)
    }
}

/// A category registry answered on the caller's thread, starting from the center's current set:
/// what is left is the extension's own work (decide, merge the category objects, record).
final class InProcessCategoryStore: CategoryStore, @unchecked Sendable {
    // @unchecked Sendable: `categories` is guarded by `lock`.
    private let lock = NSLock()
    private var categories: Set<UNNotificationCategory>

    init(categories center: UNUserNotificationCenter) {
        let box = UncheckedSendable(center)
        let semaphore = DispatchSemaphore(value: 0)
        let read = Locked(Set<UNNotificationCategory>())
        box.value.getNotificationCategories { existing in
            read.withLock { $0 = existing }
            semaphore.signal()
        }
        semaphore.wait()
        categories = read.withLock { $0 }
    }

    func update(timeout: Duration, _ decide: @escaping @Sendable (Set<String>) -> CategoryChange?) async throws(CategoryStoreError) -> CategoryChange? {
        lock.withLock {
            guard let change = decide(Set(categories.map(\.identifier))) else { return nil }
            categories = change.applied(to: categories)
            return change
        }
    }

    func deliveredCategoryIdentifiers(timeout: Duration) async throws(CategoryStoreError) -> Set<String> { [] }
}

extension String {
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

/// Hands the content back at once: what the delivery itself costs (building the request, the
/// copy iOS hands the extension, calling the handler), to subtract from the others.
final class NullBenchService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        contentHandler(request.content)
    }
}

/// The seed article's extension: read, insert, write back, handler; nothing else.
final class NaiveBenchService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        let payload = NotificationPayload(userInfo: content.userInfo)
        let identifier = CategoryIdentifier.derive(from: payload.buttons)
        content.categoryIdentifier = identifier
        let center = UNUserNotificationCenter.current()
        let box = UncheckedSendable(center)
        let handler = UncheckedSendable(contentHandler)
        let mutable = UncheckedSendable(content)
        let buttons = payload.buttons
        center.getNotificationCategories { existing in
            var merged = existing
            merged.insert(UNNotificationCategory.notibase(identifier: identifier, buttons: buttons))
            box.value.setNotificationCategories(merged)
            handler.value(mutable.value)
        }
    }
}
#endif
