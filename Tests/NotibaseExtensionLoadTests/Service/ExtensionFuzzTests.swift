import Foundation
import Testing
import NotibaseCore
import NotibaseTestSupport
@preconcurrency import UserNotificationsShim
@testable import NotibaseExtension
@testable import NotibaseExtensionTestSupport

/// Random and mutated payloads through the whole extension: it never crashes, and calls the
/// content handler exactly once, every time. NOTIBASE_FUZZ_ITERATIONS sets the count (100,000 by
/// default; more in a benchmark run).
@Suite("Extension fuzzing")
struct ExtensionFuzzTests {
    static var iterations: Int {
        Int(ProcessInfo.processInfo.environment["NOTIBASE_FUZZ_ITERATIONS"] ?? "") ?? 100_000
    }

    /// Answers at once: a file for https URLs (some of the time), a failure otherwise.
    struct InstantFetcher: ImageFetching {
        let file: URL
        func fetch(_ url: String, timeout: Duration) async -> ImageFetchResult {
            guard url.hasPrefix("https://"), url.count % 2 == 0 else { return .failed(reason: "fuzz: no image") }
            let copy = file.deletingLastPathComponent().appendingPathComponent(UUID().uuidString + ".jpg")
            try? FileManager.default.copyItem(at: file, to: copy)
            return .downloaded(file: copy, type: .jpeg, bytes: 8)
        }
    }

    @Test func everyPayloadGetsExactlyOneHandlerCall() async throws {
        let files = TemporaryDirectory("notibase-fuzz")
        let image = files.url.appendingPathComponent("seed.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0]).write(to: image)
        let device = SimulatedDevice(name: "fuzz")
        device.readLatency = .immediate
        device.center.setNotificationCategories(appCategories())
        let fetcher = InstantFetcher(file: image)

        var generator = PayloadFuzzer(seed: 0x5eed)
        let iterations = Self.iterations
        let batch = 64
        var calls: [Int] = []
        var index = 0
        while index < iterations {
            let count = min(batch, iterations - index)
            var requests: [UncheckedSendable<UNNotificationRequest>] = []
            for offset in 0..<count {
                requests.append(UncheckedSendable(SimulatedPayload.request(from: generator.next(), identifier: "f\(index + offset)")))
            }
            let results = await withTaskGroup(of: Int.self) { group in
                for request in requests {
                    group.addTask {
                        await Self.run(request, device: device, fetcher: fetcher, directory: files.url)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            calls.append(contentsOf: results)
            index += count
        }
        #expect(calls.count == iterations)
        #expect(calls.allSatisfy { $0 == 1 }, "handler call counts other than 1: \(Set(calls))")
        #expect(await registeredIdentifiers(device).isSuperset(of: ["INVITATION", "CHAT"]))
    }

    /// Runs one request through a fresh extension; returns how many times the handler was called
    /// (waiting a moment after the first call to catch a second).
    static func run(_ request: UncheckedSendable<UNNotificationRequest>, device: SimulatedDevice, fetcher: InstantFetcher, directory: URL) async -> Int {
        let counter = Locked(0)
        // No in-flight window: categories are evicted as soon as capacity is reached, so the fuzz
        // exercises eviction too and the registered set stays bounded.
        let service = TestNotificationService(deadline: .seconds(5), directory: directory, fetcher: fetcher, inFlightWindow: .zero)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            device.withCurrent {
                service.didReceive(request.value) { content in
                    let first = counter.withLock { count -> Bool in
                        count += 1
                        return count == 1
                    }
                    _ = content.title
                    if first { continuation.resume() }
                }
            }
        }
        await Task.yield()
        return counter.withLock { $0 }
    }
}
