import Foundation
import Synchronization
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The webhooks' name lookups, bounded (issue 43): by each caller's deadline, by app, shared by
/// host, and on threads of their own. A resolver that never answers stands in for DNS that drops
/// queries.
@Suite struct WebhookLookupsTests {
    /// A resolver that holds lookups of names starting with `slow` until released, and answers
    /// the others at once; it counts the lookups it was asked for.
    final class HeldResolver: WebhookResolver {
        private let state = Mutex<(asked: [String], held: [CheckedContinuation<Void, Never>], released: Bool)>(([], [], false))

        var asked: [String] { state.withLock { $0.asked } }

        func release() {
            for continuation in state.withLock({ state in
                state.released = true
                defer { state.held = [] }
                return state.held
            }) { continuation.resume() }
        }

        func addresses(of host: String) async -> [IPAddress] {
            state.withLock { $0.asked.append(host) }
            if host.hasPrefix("slow") {
                await withCheckedContinuation { continuation in
                    if state.withLock({ state in
                        if !state.released { state.held.append(continuation) }
                        return state.released
                    }) { continuation.resume() }
                }
                return []
            }
            return [IPAddress("93.184.215.14")!]
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anotherAppIsNotQueuedBehindAnAppsLookupsThatDoNotAnswer() async throws {
        let resolver = HeldResolver()
        let lookups = WebhookLookups(resolver: resolver, perApp: 2)
        let done = Mutex(false)
        // Ten of one app's names that do not answer: two asked, eight waiting their app's turn.
        let slow = Task {
            let results = await withTaskGroup(of: [IPAddress]?.self) { group in
                for number in 1...10 { group.addTask { await lookups.addresses(of: "slow-\(number).example", appID: "noisy", deadline: .now + .seconds(600)) } }
                return await group.reduce(into: [[IPAddress]?]()) { $0.append($1) }
            }
            done.withLock { $0 = true }
            return results
        }
        try await waitUntil(timeout: .seconds(60)) { resolver.asked.count == 2 }
        // Another app's name is looked up at once, while the noisy app's still wait.
        let answer = await lookups.addresses(of: "hooks.example.com", appID: "quiet", deadline: .now + .seconds(600))
        #expect(answer == [IPAddress("93.184.215.14")!])
        #expect(!done.withLock { $0 })
        #expect(resolver.asked.filter { $0.hasPrefix("slow") }.count == 2)
        // Answered, the noisy app's lookups are asked in turn, two at a time.
        resolver.release()
        let results = await slow.value
        #expect(results.count == 10 && results.allSatisfy { $0 == [] })
        #expect(resolver.asked.filter { $0.hasPrefix("slow") }.count == 10)
    }

    /// A caller's wait ends at its deadline, unanswered, whether its lookup was asked or still
    /// waited its app's turn (the test's time limit fails a wait that does not end).
    @Test(.timeLimit(.minutes(1)))
    func aCallerWaitsNoLongerThanItsDeadline() async throws {
        let resolver = HeldResolver()
        let lookups = WebhookLookups(resolver: resolver, perApp: 1)
        async let asked = lookups.addresses(of: "slow-1.example", appID: "a", deadline: .now + .milliseconds(300))
        async let queued = lookups.addresses(of: "slow-2.example", appID: "a", deadline: .now + .milliseconds(300))
        let results = await [asked, queued]
        #expect(results == [nil, nil])
        #expect(resolver.asked.count == 1)
        resolver.release()
    }

    @Test func callersOfOneHostShareOneLookup() async throws {
        let resolver = HeldResolver()
        let lookups = WebhookLookups(resolver: resolver, perApp: 1)
        let waiting = Task {
            await withTaskGroup(of: [IPAddress]?.self) { group in
                for _ in 1...64 { group.addTask { await lookups.addresses(of: "slow.example", appID: "a", deadline: .now + .seconds(60)) } }
                return await group.reduce(into: [[IPAddress]?]()) { $0.append($1) }
            }
        }
        try await waitUntil(timeout: .seconds(60)) { resolver.asked.count == 1 }
        // Asked once, whoever asks; the answer reaches every caller.
        try await Task.sleep(for: .milliseconds(100))
        resolver.release()
        let answers = await waiting.value
        #expect(answers.count == 64 && answers.allSatisfy { $0 == [] })
        #expect(resolver.asked == ["slow.example"])
    }

    /// The system resolver's lookups block a thread each: on threads of the resolver's own, never
    /// Swift's or Dispatch's shared ones, so that lookups that never answer leave every other
    /// task of the process running.
    @Test func blockingLookupsRunOnThreadsOfTheirOwn() async throws {
        let names = Mutex<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        let resolver = SystemResolver(threads: 3) { _ in
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            names.withLock { $0.append(name.trimmingCharacters(in: .whitespacesAndNewlines)) }
            gate.wait()
            return []
        }
        let lookups = Task { await withTaskGroup(of: Void.self) { group in for _ in 1...5 { group.addTask { _ = await resolver.addresses(of: "x") } } } }
        try await waitUntil(timeout: .seconds(60)) { names.withLock { $0.count } == 3 }
        // Three threads, all blocked; the other two lookups wait their turn.
        try await Task.sleep(for: .milliseconds(100))
        #expect(names.withLock { $0 } == ["nb-lookup", "nb-lookup", "nb-lookup"])
        for _ in 1...5 { gate.signal() }
        await lookups.value
        #expect(names.withLock { $0.count } == 5)
    }
}
