/// A lock shared with other processes that write the same category set (the app and its
/// extension), held around the read-modify-write.
public protocol CategoryLock: Sendable {
    /// Runs `body` holding the lock; throws ``CategoryStoreError/lockTimedOut`` when it cannot be
    /// taken within `timeout`.
    func withLock<Result: Sendable>(timeout: Duration, _ body: () async throws(CategoryStoreError) -> Result)
        async throws(CategoryStoreError) -> Result

    /// Lets go of the lock at once, if this process holds it, while its holder is still running:
    /// a process suspended while holding a file lock in a shared container is killed by iOS. The
    /// holder finds ``isAbandoned`` true and writes nothing.
    func abandon()

    /// Whether the current holder's lock was abandoned (it must not write).
    var isAbandoned: Bool { get }
}

extension CategoryLock {
    /// Default: nothing to let go of.
    public func abandon() {}
    /// Default: never abandoned.
    public var isAbandoned: Bool { false }
}
