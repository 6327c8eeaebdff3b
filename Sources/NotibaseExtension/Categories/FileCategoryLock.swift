import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock on a file in a directory the app and its extension share (the App Group container), held
/// around every read-modify-write of the category set, so that the app setting its categories and
/// the extension registering one never interleave: two processes, one system set.
///
/// `flock` locks belong to an open file, so this also excludes other holders in the same process.
/// Taking it never blocks a thread: it polls, up to the timeout.
public struct FileCategoryLock: CategoryLock {
    /// The lock file.
    public let file: URL
    private let path: String

    /// A lock on `directory/notibase-categories.lock`.
    public init(directory: URL) {
        file = directory.appendingPathComponent("notibase-categories.lock")
        path = file.path
    }

    public func withLock<Result: Sendable>(timeout: Duration, _ body: () async throws(CategoryStoreError) -> Result)
        async throws(CategoryStoreError) -> Result
    {
        var descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        if descriptor < 0, errno == ENOENT {
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        }
        guard descriptor >= 0 else {
            // No shared directory to lock in: the in-process serial section still applies.
            return try await body()
        }
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < deadline else { throw .lockTimedOut }
            try? await Task.sleep(for: .milliseconds(2))
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }
}
