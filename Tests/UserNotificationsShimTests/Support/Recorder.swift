import Foundation

/// Values recorded from whatever thread the system calls back on, read by the test afterwards.
/// (`@unchecked Sendable`: a tiny class whose state is reached only under its own lock.)
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func record(_ value: Value) {
        lock.withLock { values.append(value) }
    }

    var all: [Value] {
        lock.withLock { values }
    }

    var count: Int {
        lock.withLock { values.count }
    }

    /// Waits (polling, without blocking the cooperative pool) until `count` values arrived or
    /// `timeout` passed; returns the values.
    @discardableResult
    func wait(for count: Int, timeout: Duration = .seconds(2)) async -> [Value] {
        let deadline = ContinuousClock.now + timeout
        while self.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return all
    }
}

/// Moves a value the test knows to be safe across a `@Sendable` boundary, as client code must for
/// the non-Sendable content handler (Apple declares it without `@Sendable`).
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The calling thread's identity, comparable while both threads are alive.
func currentThreadID() -> UInt {
    UInt(pthread_self())
}
