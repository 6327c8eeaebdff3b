import Foundation

/// A value behind a lock this object owns: the state is reached only through `withLock`, so it is
/// safe to share (the reason for `@unchecked Sendable`).
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
