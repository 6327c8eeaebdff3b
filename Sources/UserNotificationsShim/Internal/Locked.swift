import Foundation

/// A value behind a lock this object owns: the only state it guards is reached through
/// `withLock`, so it is safe to share (the reason for `@unchecked Sendable`). Values stored here
/// are Sendable, or shim objects that are themselves thread-safe (see `Unchecked`).
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

    /// One field of the state, read or written under the lock.
    subscript<Field>(_ field: WritableKeyPath<State, Field>) -> Field {
        get { withLock { $0[keyPath: field] } }
        set { withLock { $0[keyPath: field] = newValue } }
    }
}
