public import Foundation

/// A simulated iPhone: its notification center, its notification daemon and the person holding it.
///
/// Each device has its own categories, delivered notifications, authorization decision and
/// attachment store, so many can live in one process. `UNUserNotificationCenter.current()` returns
/// the center of the device bound to the current task:
///
/// ```swift
/// let device = SimulatedDevice(name: "phone A")
/// device.readLatency = .fixed(.milliseconds(50))
/// let drawn = await device.deliver(payload: payload, to: NotificationService())
/// try await device.tap(button: "accept", inNotification: drawn.requestIdentifier)
/// ```
///
/// Code running on the device's own threads (the extension's `didReceive`, answers to the center's
/// reads, delegate calls) sees the device as current; threads the extension starts itself with
/// Dispatch or `Thread` don't, and see `SimulatedDevice.default`: capture the center in `didReceive`.
public final class SimulatedDevice: Sendable {
    /// The device bound to the current task, if any (set with `withCurrent` or
    /// `SimulatedDevice.$bound.withValue`).
    @TaskLocal public static var bound: SimulatedDevice?

    /// The process-wide device `UNUserNotificationCenter.current()` falls back to.
    public static let `default` = SimulatedDevice(name: "default")

    /// The device bound to the current task, or else `default`.
    public static var current: SimulatedDevice {
        bound ?? .default
    }

    /// A name for reports and thread names.
    public let name: String
    let system: NotificationSystem
    let attachmentStore: AttachmentStore
    private let centerBox: Unchecked<UNUserNotificationCenter>
    private let settings = Locked(Settings())
    let deliveries = Locked([String: DeliveryRecord]())
    /// Extension runs that have not handed over their content yet: at zero, iOS may suspend the
    /// extension's process.
    let extensionRunsInProgress = Locked(0)

    private struct Settings {
        var serviceExtensionTimeBudget: Duration = .seconds(30)
        var expirationGracePeriod: Duration = .seconds(1)
        var contentHandlerSettlePeriod: Duration = .milliseconds(10)
        var delegateCompletionTimeout: Duration = .seconds(30)
        var attachmentHandling: AttachmentHandling = .move
        var extensionTermination: ExtensionTermination = .none
        var appIsInForeground = false
        var serviceExtensionMemoryLimit: Int?
        var sharedContainers: [URL] = []
    }

    /// Creates a device with an empty category registry, nothing delivered and authorization not yet
    /// asked.
    ///
    /// - Parameters:
    ///   - name: A name for reports and thread names.
    ///   - attachmentStoreDirectory: Where the system keeps attachments it accepted; by default a new
    ///     temporary directory, removed when the device goes away.
    public init(name: String = "simulated device", attachmentStoreDirectory: URL? = nil) {
        self.name = name
        let owner = Locked(WeakDevice())
        system = NotificationSystem(name: name) { work in
            guard let device = owner.withLock({ $0.device }) else { return work() }
            SimulatedDevice.$bound.withValue(device, operation: work)
        }
        attachmentStore = AttachmentStore(directory: attachmentStoreDirectory, deviceName: name)
        centerBox = Unchecked(UNUserNotificationCenter(system: system))
        owner.withLock { $0.device = self }
    }

    private struct WeakDevice {
        weak var device: SimulatedDevice?
    }

    /// This device's notification center: what `UNUserNotificationCenter.current()` returns while the
    /// device is bound.
    public var center: UNUserNotificationCenter {
        centerBox.value
    }

    /// Runs `operation` with this device as `SimulatedDevice.current`.
    public func withCurrent<Result>(_ operation: () throws -> Result) rethrows -> Result {
        try Self.$bound.withValue(self, operation: operation)
    }

    /// Runs `operation` with this device as `SimulatedDevice.current`.
    public func withCurrent<Result>(isolation: isolated (any Actor)? = #isolation,
                                    _ operation: () async throws -> Result) async rethrows -> Result {
        try await Self.$bound.withValue(self, operation: operation)
    }

    // MARK: Settings

    /// How long the center's reads take to answer (categories, delivered notifications,
    /// authorization). Setting it restarts a random latency's sequence from its seed.
    public var readLatency: SimulatedLatency {
        get { system.readLatency }
        set { system.readLatency = newValue }
    }

    /// How long a `setNotificationCategories` write takes to become what the system reads and draws
    /// with (`.immediate` by default). On iOS the set written may not be what is read a moment
    /// later: until the write applies, reads return the old set and a notification shown meanwhile
    /// is drawn with it. Writes apply in the order they were made.
    public var categoryWriteLatency: SimulatedLatency {
        get { system.categoryWriteLatency }
        set { system.categoryWriteLatency = newValue }
    }

    /// What the person answers the first authorization prompt (`true`: allow). Later requests get
    /// the first answer without a prompt.
    public var authorizationAnswer: Bool {
        get { system.authorizationAnswer }
        set { system.authorizationAnswer = newValue }
    }

    /// When set, `requestAuthorization` fails with this error (and `false`), as iOS may (for
    /// instance `.notificationsNotAllowed` under a restriction). `nil` by default.
    public var authorizationFailure: UNError.Code? {
        get { system.authorizationFailure }
        set { system.authorizationFailure = newValue }
    }

    /// Whether the app is in the foreground when notifications arrive (`false` by default). Then
    /// iOS asks the center's delegate, on the main thread, how to present each notification
    /// (`willPresent`); without a delegate, or with no options, the notification is not shown.
    public var appIsInForeground: Bool {
        get { settings[\.appIsInForeground] }
        set { settings[\.appIsInForeground] = newValue }
    }

    /// How many times the person was prompted for authorization.
    public var authorizationPromptCount: Int {
        system.authorizationPrompts
    }

    /// How long a service extension has to call its content handler (30 s on iOS).
    public var serviceExtensionTimeBudget: Duration {
        get { settings[\.serviceExtensionTimeBudget] }
        set { settings[\.serviceExtensionTimeBudget] = newValue }
    }

    /// How long the system waits after `serviceExtensionTimeWillExpire()` before showing the
    /// original content. Apple gives no figure; 1 s by default.
    public var expirationGracePeriod: Duration {
        get { settings[\.expirationGracePeriod] }
        set { settings[\.expirationGracePeriod] = newValue }
    }

    /// How long the system keeps listening after the first content handler call before showing the
    /// notification, to record a second call (10 ms by default). Later calls are still counted in
    /// `contentHandlerCallCount(forRequest:)`.
    public var contentHandlerSettlePeriod: Duration {
        get { settings[\.contentHandlerSettlePeriod] }
        set { settings[\.contentHandlerSettlePeriod] = newValue }
    }

    /// How long an interaction waits for the delegate to call its completion handler. 30 s by
    /// default, so that a delegate slowed by a loaded machine (an `async` delegate waits for a
    /// thread of the cooperative pool) is not reported as one that never completes; a test of a
    /// delegate that never completes sets a short one.
    public var delegateCompletionTimeout: Duration {
        get { settings[\.delegateCompletionTimeout] }
        set { settings[\.delegateCompletionTimeout] = newValue }
    }

    /// Whether accepted attachment files are moved into the store, as iOS does (the default), or
    /// copied, leaving the extension's file in place.
    public var attachmentHandling: AttachmentHandling {
        get { settings[\.attachmentHandling] }
        set { settings[\.attachmentHandling] = newValue }
    }

    /// Whether the system ends the extension's process the instant the content handler is called,
    /// as iOS may (`.none` by default). `.killProcessAfterContentHandler` kills the whole process
    /// with SIGKILL: use it in a child process, to show that what the extension must not lose
    /// (its render report) is on disk before it calls the handler.
    public var extensionTermination: ExtensionTermination {
        get { settings[\.extensionTermination] }
        set { settings[\.extensionTermination] = newValue }
    }

    /// The memory a service extension may use, in bytes, as iOS enforces it (about 24 MB for a
    /// Notification Service Extension); nil (the default) does not enforce one. While the extension
    /// works, the system samples how far the process's resident memory has grown since
    /// `didReceive` was called; past the limit it kills the extension and shows the original
    /// content. The growth is the whole process's: enforce a limit only where nothing else in the
    /// process allocates much at the same time.
    public var serviceExtensionMemoryLimit: Int? {
        get { settings[\.serviceExtensionMemoryLimit] }
        set { settings[\.serviceExtensionMemoryLimit] = newValue }
    }

    /// The app's shared containers (App Group directories). iOS suspends the extension's process
    /// once the last notification in it was handed over, and kills a process suspended while it
    /// holds a file lock in a shared container (`0xdead10cc`): at that moment the system looks for
    /// `flock`/`fcntl` locks this process holds on files under these directories, and records
    /// `fileLockHeldWhileSuspended`. Empty by default (no check). Linux only (`/proc/locks`).
    public var sharedContainers: [URL] {
        get { settings[\.sharedContainers] }
        set { settings[\.sharedContainers] = newValue }
    }

    /// The directory where the system keeps accepted attachments.
    public var attachmentStoreDirectory: URL {
        attachmentStore.directory
    }

    var deliverySettings: DeliverySettings {
        settings.withLock {
            DeliverySettings(budget: $0.serviceExtensionTimeBudget, grace: $0.expirationGracePeriod, settle: $0.contentHandlerSettlePeriod,
                             handling: $0.attachmentHandling, memoryLimit: $0.serviceExtensionMemoryLimit,
                             sharedContainers: $0.sharedContainers)
        }
    }

    // MARK: Screen

    /// What was drawn for a request, if it was delivered.
    public func drawnNotification(forRequest identifier: String) -> DrawnNotification? {
        deliveries.withLock { $0[identifier]?.drawn }
    }

    /// How many times the extension has called the content handler for a request so far, including
    /// calls after the notification was shown; `nil` if the extension did not run for it.
    public func contentHandlerCallCount(forRequest identifier: String) -> Int? {
        deliveries.withLock { $0[identifier]?.run }?.callCount
    }
}

/// When the system ends a service extension's process.
public enum ExtensionTermination: String, Sendable, Codable {
    /// It lives on after the content handler (the process may be reused).
    case none
    /// Killed (SIGKILL) the instant the content handler is called.
    case killProcessAfterContentHandler
}

/// What the system does with an attachment file it accepts.
public enum AttachmentHandling: String, Sendable, Codable {
    /// Move the file into the system's store, as iOS does: the extension's file is gone afterwards.
    case move
    /// Copy the file, leaving the extension's file in place.
    case copy
}

/// The settings one delivery runs with.
struct DeliverySettings {
    var budget: Duration
    var grace: Duration
    var settle: Duration
    var handling: AttachmentHandling
    var memoryLimit: Int?
    var sharedContainers: [URL]
}

/// What the device remembers of one delivery.
struct DeliveryRecord: Sendable {
    var drawn: DrawnNotification
    var run: ExtensionRun?
}
