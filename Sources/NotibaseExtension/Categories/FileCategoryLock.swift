public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock on a file in a directory the app and its extension share (the App Group container), held
/// around every read-modify-write of the category set, so that the app setting its categories and
/// the extension registering one never interleave: two processes, one system set.
///
/// The file stays open for the life of the lock (opening and closing it for every notification
/// cost more than the rest of taking the lock). `flock` locks belong to an open file, so holders
/// within one lock are excluded by a flag, holders across processes (and across `FileCategoryLock`
/// instances) by `flock`. Taking it never blocks a thread: it polls, up to the timeout.
public final class FileCategoryLock: CategoryLock {
    private struct State {
        var held = false
        /// The open lock file; nil until first used, or when it could not be opened.
        var descriptor: Int32?
        /// Whether this lock holds the `flock` now.
        var locked = false
        /// Whether the current holder's `flock` was let go by ``FileCategoryLock/abandon()``.
        var abandoned = false
    }

    /// The lock file.
    public let file: URL
    private let path: String
    private let state = Locked(State())

    /// A lock on `directory/notibase-categories.lock`.
    public init(directory: URL) {
        file = directory.appendingPathComponent("notibase-categories.lock")
        path = file.path
    }

    deinit {
        if let descriptor = state.withLock({ $0.descriptor }) { close(descriptor) }
    }

    public func withLock<Result: Sendable>(timeout: Duration, _ body: () async throws(CategoryStoreError) -> Result)
        async throws(CategoryStoreError) -> Result
    {
        let deadline = ContinuousClock.now + timeout
        while !state.withLock({ state -> Bool in
            guard !state.held else { return false }
            state.held = true
            return true
        }) {
            // A cancelled registration (its notification was finished early) never takes the lock.
            guard !Task.isCancelled else { throw .abandoned }
            guard ContinuousClock.now < deadline else { throw .lockTimedOut }
            try? await Task.sleep(for: .milliseconds(2))
        }
        defer { state.withLock { $0.held = false } }
        guard let descriptor = openedDescriptor() else {
            // Never "no lock needed": the app may hold this lock (a file the data protection class
            // makes unreadable while the phone is locked, a container gone): nothing is written.
            throw .lockUnavailable
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard !Task.isCancelled else { throw .abandoned }
            guard ContinuousClock.now < deadline else { throw .lockTimedOut }
            try? await Task.sleep(for: .milliseconds(2))
        }
        // Checked once the lock is taken too: a cancellation (which comes before the content
        // handler) that came while taking it lets go at once.
        guard !Task.isCancelled else {
            flock(descriptor, LOCK_UN)
            throw .abandoned
        }
        state.withLock { state in
            state.locked = true
            state.abandoned = false
        }
        defer {
            state.withLock { state in
                if state.locked { flock(descriptor, LOCK_UN) }
                state.locked = false
            }
        }
        return try await body()
    }

    public func abandon() {
        state.withLock { state in
            guard state.locked, let descriptor = state.descriptor else { return }
            flock(descriptor, LOCK_UN)
            state.locked = false
            state.abandoned = true
        }
    }

    public var isAbandoned: Bool {
        state.withLock { $0.abandoned }
    }

    /// Whether this lock holds the file lock now.
    public var isHeld: Bool {
        state.withLock { $0.locked }
    }

    /// The lock file, opened (and its directory made) on first use. Called holding the flag.
    private func openedDescriptor() -> Int32? {
        if let descriptor = state.withLock({ $0.descriptor }) { return descriptor }
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == ENOENT {
            DataProtection.makeDirectory(file.deletingLastPathComponent())
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { return nil }
        DataProtection.allowWhileLocked(path)
        state.withLock { $0.descriptor = descriptor }
        return descriptor
    }
}
