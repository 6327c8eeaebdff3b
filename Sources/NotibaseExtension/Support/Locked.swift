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
///
/// Box one value, not a tuple: with Swift 6.3.1 on Linux, an element taken out of a tuple stored
/// here and passed as an owned argument (`set.insert(box.value.2)`) was released once too often,
/// and the process crashed later in unrelated code. One box per value avoids it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
