import Foundation
import NotibaseCore
import NotibaseExtension
#if canImport(UserNotifications)
@preconcurrency import UserNotifications
#else
@preconcurrency import UserNotificationsShim
#endif

/// Writes the app's own categories into the system's set without dropping the categories the
/// Notibase extension registered (and without the extension dropping the app's): the same
/// read-modify-write the extension does, under the same lock when the two share a directory.
struct AppCategoryWriter: Sendable {
    private let center: UncheckedSendable<UNUserNotificationCenter>
    private let lock: (any CategoryLock)?
    private let backgroundTasks: any BackgroundTaskRunning
    private let readTimeout: Duration
    private let serial = AsyncMutex()

    /// How long a write is read back, waiting for it to be visible.
    private let confirmationTimeout: Duration

    init(
        center: UNUserNotificationCenter, sharedDirectory: URL?, readTimeout: Duration, confirmationTimeout: Duration = .seconds(2),
        backgroundTasks: any BackgroundTaskRunning = SystemBackgroundTasks()
    ) {
        self.center = UncheckedSendable(center)
        self.backgroundTasks = backgroundTasks
        self.confirmationTimeout = confirmationTimeout
        lock = sharedDirectory.map(FileCategoryLock.init(directory:))
        self.readTimeout = readTimeout
    }

    /// Replaces the app's categories (every identifier that is not a Notibase one) with
    /// `categories`, keeping every Notibase category. Throws, writing nothing, when the system does
    /// not answer the read in time or the extension holds the lock too long.
    func set(_ categories: Set<UNNotificationCategory>) async throws(CategoryStoreError) {
        let replacement = UncheckedSendable(categories)
        let lock = lock
        // Set when the background task expires: from then on nothing is written, and the lock is
        // let go of (or, when not taken yet, let go of as soon as it is taken).
        let expired = Locked(false)
        let center = center
        let timeout = readTimeout
        let write = { () async throws(CategoryStoreError) -> Void in
            do {
                try await Deadline.run(timeout: timeout) { complete in
                    center.value.getNotificationCategories { existing in
                        complete {
                            // Let go of when the background task expired: write nothing.
                            if expired.withLock({ $0 }) || lock?.isAbandoned == true { return }
                            let owned = existing.filter { CategoryIdentifier.isDerived($0.identifier) }
                            let apps = replacement.value.filter { !CategoryIdentifier.isDerived($0.identifier) }
                            center.value.setNotificationCategories(owned.union(apps))
                        }
                    }
                }
            } catch {
                throw .readTimedOut
            }
        }
        // On iOS the set written may not be what is read a moment later: read back (bounded) until
        // the app's categories are what the system holds, before letting the extension read.
        let expected = Set(categories.map(\.identifier).filter { !CategoryIdentifier.isDerived($0) })
        let confirmationTimeout = confirmationTimeout
        let writeAndConfirm = { () async throws(CategoryStoreError) -> Void in
            try await write()
            _ = await ReadBack.poll(timeout: confirmationTimeout, giveUp: { expired.withLock { $0 } }) {
                let identifiers = await Self.identifiers(center)
                return identifiers.map { Set($0.filter { !CategoryIdentifier.isDerived($0) }) == expected } ?? false
            }
        }
        let backgroundTasks = backgroundTasks
        try await serial.withLock { () async throws(CategoryStoreError) -> Void in
            guard let lock else { return try await writeAndConfirm() }
            // A background task around the locked section: if the app is about to be suspended
            // first, the lock is let go of and nothing is written.
            let expire: @Sendable () -> Void = {
                expired.withLock { $0 = true }
                lock.abandon()
            }
            try await backgroundTasks.run(named: "Notibase categories", expired: expire) { () async throws(CategoryStoreError) -> Void in
                try await lock.withLock(timeout: timeout) { () async throws(CategoryStoreError) -> Void in
                    guard !expired.withLock({ $0 }) else { throw .abandoned }
                    try await writeAndConfirm()
                    if expired.withLock({ $0 }) { throw .abandoned }
                }
            }
        }
    }

    /// The registered identifiers, or nil when the system does not answer within a second.
    private static func identifiers(_ center: UncheckedSendable<UNUserNotificationCenter>) async -> [String]? {
        try? await Deadline.run(timeout: .seconds(1)) { complete in
            center.value.getNotificationCategories { existing in
                let identifiers = existing.map(\.identifier)
                complete { identifiers }
            }
        }
    }
}
