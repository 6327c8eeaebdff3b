import Foundation
import Testing
import NotibaseTestSupport
import Synchronization

/// A test's child processes are awaited without holding a thread of Swift's cooperative pool
/// (two threads on this machine), and their exit is seen even when their own children live on.
@Suite("Child processes", .tags(.processes))
struct ChildProcessTests {
    /// More children than the pool has threads, all awaited at once.
    static let count = 12

    func shell(_ script: String) throws -> ChildProcess {
        try ChildProcess("/bin/sh", ["-c", script])
    }

    @Test(.timeLimit(.minutes(1)))
    func manyConcurrentWaitsAllFinishWithTheirOwnStatus() async throws {
        let children = try (0..<Self.count).map { try shell("sleep 0.2; exit \($0)") }
        let statuses = await withTaskGroup(of: (Int, Int32).self) { group in
            for (number, child) in children.enumerated() { group.addTask { (number, await child.exit()) } }
            return await group.reduce(into: [Int: Int32]()) { $0[$1.0] = $1.1 }
        }
        #expect(statuses == Dictionary(uniqueKeysWithValues: (0..<Self.count).map { ($0, Int32($0)) }))
    }

    /// The children wait for their standard input to close, which happens only after other async
    /// work has run to its end: were each wait holding a pool thread, that work could not run
    /// until a watchdog (a thread of its own, after a minute) let the children go.
    @Test func waitingForChildrenLeavesThePoolToOtherWork() async throws {
        let children = try (0..<Self.count).map { _ in try shell("read line; exit 0") }
        let watchdog = Watchdog(after: .seconds(60)) { for child in children { child.closeInput() } }
        let waits = Task {
            await withTaskGroup(of: Int32.self) { group in
                for child in children { group.addTask { await child.exit() } }
                return await group.reduce(into: [Int32]()) { $0.append($1) }
            }
        }
        let progressed = await withTaskGroup(of: Int.self) { group in
            for number in 0..<100 {
                group.addTask {
                    await Task.yield()
                    return number
                }
            }
            return await group.reduce(0, +)
        }
        #expect(watchdog.disarm(), "the other work ran only after the children were let go")
        #expect(progressed == (0..<100).reduce(0, +))
        #expect(children.allSatisfy { $0.isRunning }, "a child ended before its input closed")
        for child in children { child.closeInput() }
        #expect(await waits.value == Array(repeating: 0, count: Self.count))
    }

    /// A child that leaves a process of its own behind, holding its output open (as `pg_ctl`
    /// leaves the PostgreSQL server): its exit is seen at once.
    @Test(.timeLimit(.minutes(1)))
    func theExitOfAChildWhoseChildLivesOnIsSeen() async throws {
        let child = try shell("sleep 60 & echo $!; exit 3")
        let grandchild = try #require(pid_t(try child.readLine()))
        defer { kill(grandchild, SIGKILL) }
        #expect(await child.exit() == 3)
        #expect(kill(grandchild, 0) == 0, "the grandchild is gone: the test shows nothing")
    }

    @Test(.timeLimit(.minutes(1)))
    func terminateEndsTheChildWithSIGTERM() async throws {
        let child = try shell("exec sleep 60")
        await child.terminate()
        #expect(!child.isRunning)
        #expect(await child.exit() == 128 + SIGTERM)
    }

    @Test func runToCompletionFeedsInputAndReturnsOutputAndStatus() throws {
        let result = try runToCompletion("/bin/sh", ["-c", "tr a-z A-Z; exit 4"], input: "shout\n")
        #expect(result.status == 4)
        #expect(result.output == "SHOUT\n")
    }

    @Test func runToEndJoinsStandardErrorToOutput() async throws {
        let result = try await runToEnd("/bin/sh", ["-c", "echo out; echo err >&2"])
        #expect(result.status == 0)
        #expect(result.output == "out\nerr\n")
    }
}

/// Runs `rescue` on a thread of its own after `delay`, unless disarmed first.
private final class Watchdog: Sendable {
    private let armed = Mutex(true)
    private let disarmed = DispatchSemaphore(value: 0)

    init(after delay: Duration, rescue: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            if disarmed.wait(timeout: .now() + .seconds(Int(delay.components.seconds))) == .success { return }
            if armed.withLock({ armed in defer { armed = false }; return armed }) { rescue() }
        }
    }

    /// Disarms it; false when it had already fired.
    func disarm() -> Bool {
        let wasArmed = armed.withLock { armed in defer { armed = false }; return armed }
        disarmed.signal()
        return wasArmed
    }
}
