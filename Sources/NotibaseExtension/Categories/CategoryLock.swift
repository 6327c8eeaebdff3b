/// A lock shared with other processes that write the same category set (the app and its
/// extension), held around the read-modify-write.
public protocol CategoryLock: Sendable {
    /// Runs `body` holding the lock; throws ``CategoryStoreError/lockTimedOut`` when it cannot be
    /// taken within `timeout`.
    func withLock<Result: Sendable>(timeout: Duration, _ body: () async throws(CategoryStoreError) -> Result)
        async throws(CategoryStoreError) -> Result
}
