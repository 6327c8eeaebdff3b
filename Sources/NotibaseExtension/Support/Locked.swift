import Foundation

/// A value guarded by a lock this box owns. `@unchecked Sendable` is sound because every access
/// goes through `withLock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A UN object carried across threads. Used only for objects Apple documents as usable from any
/// thread (the notification center) or that are not touched again by the sender once handed over.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
