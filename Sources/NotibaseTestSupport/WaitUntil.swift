import Foundation
import Testing

/// Polls `condition` until it holds, for work that finishes after what a test awaited (a report
/// posted after the content handler, a file written by another task). Records an issue when it
/// does not hold within `timeout`.
public func waitUntil(timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within \(timeout)")
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
