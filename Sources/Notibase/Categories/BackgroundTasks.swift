package import NotibaseExtension
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// Keeps the app running while it holds the category lock shared with the extension: iOS kills
/// an app suspended while holding a file lock in a shared container. The locked section runs as a
/// background task; if iOS says the time is up first, `expired` lets go of the lock.
package protocol BackgroundTaskRunning: Sendable {
    /// Runs `body` as a background task named `name`; calls `expired` if the system is about to
    /// suspend the app before `body` ends.
    func run<Result: Sendable>(
        named name: String, expired: @escaping @Sendable () -> Void, _ body: () async throws(CategoryStoreError) -> Result
    ) async throws(CategoryStoreError) -> Result
}

/// `UIApplication`'s background tasks on iOS; elsewhere the body just runs.
package struct SystemBackgroundTasks: BackgroundTaskRunning {
    package init() {}

    package func run<Result: Sendable>(
        named name: String, expired: @escaping @Sendable () -> Void, _ body: () async throws(CategoryStoreError) -> Result
    ) async throws(CategoryStoreError) -> Result {
        #if canImport(UIKit) && !os(watchOS)
        let task = await MainActor.run {
            UIApplication.shared.beginBackgroundTask(withName: name) { expired() }.rawValue
        }
        defer {
            Task { @MainActor in UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: task)) }
        }
        #endif
        return try await body()
    }
}
