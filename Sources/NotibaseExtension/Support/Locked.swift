import Foundation

/// A value guarded by a lock this box owns. `@unchecked Sendable` is sound because every access
/// goes through `withLock`.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
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
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
