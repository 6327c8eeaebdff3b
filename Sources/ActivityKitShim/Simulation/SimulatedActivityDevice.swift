public import Foundation

/// A simulated iPhone's Live Activities: the activities of one app, their tokens, the budget of
/// priority-10 pushes, and the clock. `Activity<…>` reads the device bound to the current task:
///
/// ```swift
/// let phone = SimulatedActivityDevice(name: "iPhone", iOSVersion: .init(17, 5))
/// await SimulatedActivityDevice.$bound.withValue(phone) { /* the app's code */ }
/// let outcome = phone.deliver(payload, to: token, priority: 10)
/// ```
///
/// Tasks the app starts with `Task {}` inherit the binding; detached tasks see `default`.
public final class SimulatedActivityDevice: Sendable {
    /// The device bound to the current task, if any.
    @TaskLocal public static var bound: SimulatedActivityDevice?

    /// The process-wide device that `Activity` falls back to.
    public static let `default` = SimulatedActivityDevice(name: "default")

    /// The device bound to the current task, or else `default`.
    public static var current: SimulatedActivityDevice { bound ?? .default }

    /// An iOS version, `major.minor`.
    public struct IOSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
        public let major: Int
        public let minor: Int

        /// iOS `major.minor`.
        public init(_ major: Int, _ minor: Int) {
            self.major = major
            self.minor = minor
        }

        public static func < (a: IOSVersion, b: IOSVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
        public var description: String { "\(major).\(minor)" }

        /// Push-to-start (`pushToStartTokenUpdates`, the `start` event) came with iOS 17.2.
        public static let pushToStart = IOSVersion(17, 2)
    }

    /// A name for reports.
    public let name: String
    /// The iOS version the device runs.
    public let iOSVersion: IOSVersion
    let state: Locked<DeviceState>

    struct DeviceState {
        var now: Date
        var budget: Priority10Budget
        var appIsInForeground = true
        var areActivitiesEnabled = true
        var declared: [String: any DeclaredAttributes] = [:]
        var pushToStartTokens: [String: Data] = [:]
        var pushToStartStreams: [String: Broadcast<Data>] = [:]
        var activityStreams: [String: Broadcast<String>] = [:]
        var activities: [String: ActivityEntry] = [:]
        var order: [String] = []
        var deadTokens: Set<Data> = []
        var outcomes: [LiveActivityPushOutcome] = []
        /// When the priority-10 pushes of the current window were applied.
        var budgetSpent: [Date] = []

        mutating func pushToStartStream(_ type: String) -> Broadcast<Data> {
            if let stream = pushToStartStreams[type] { return stream }
            let stream = Broadcast<Data>()
            pushToStartStreams[type] = stream
            return stream
        }

        mutating func activityStream(_ type: String) -> Broadcast<String> {
            if let stream = activityStreams[type] { return stream }
            let stream = Broadcast<String>()
            activityStreams[type] = stream
            return stream
        }
    }

    /// A device running `iOSVersion` (17.5 by default), its clock at `now`, with the budget of
    /// priority-10 pushes given (see ``Priority10Budget``).
    public init(name: String = "simulated iPhone", iOSVersion: IOSVersion = IOSVersion(17, 5), now: Date = Date(), budget: Priority10Budget = .init()) {
        self.name = name
        self.iOSVersion = iOSVersion
        state = Locked(DeviceState(now: now, budget: budget))
    }

    /// Whether the app is in the foreground (`Activity.request` throws `visibility` when not).
    public var appIsInForeground: Bool {
        get { state.withLock { $0.appIsInForeground } }
        set { state.withLock { $0.appIsInForeground = newValue } }
    }

    /// The device's clock.
    public var now: Date { state.withLock { $0.now } }

    /// Tells the device that the app has `Attributes` (its widget extension declares the Live
    /// Activity): pushes naming it by `attributes-type` can start one. Reading any of `Activity`'s
    /// static members declares it too.
    public func declare<Attributes: ActivityAttributes>(_ type: Attributes.Type) {
        let name = attributesTypeName(type)
        state.withLock { state in
            if state.declared[name] == nil { state.declared[name] = Declared<Attributes>() }
        }
    }

    // MARK: What a test reads

    /// Every push delivered, with what became of it, in order.
    public var outcomes: [LiveActivityPushOutcome] { state.withLock { $0.outcomes } }

    /// The system IDs of the activities on the device (dismissed ones included), oldest first.
    public var activityIDs: [String] { state.withLock { $0.order } }

    /// The activity's state.
    public func state(ofActivity id: String) -> ActivityState? { state.withLock { $0.activities[id]?.state } }

    /// The activity's attributes and content state as JSON.
    public func attributes(ofActivity id: String) -> Data? { state.withLock { $0.activities[id]?.attributes } }
    public func contentState(ofActivity id: String) -> Data? { state.withLock { $0.activities[id]?.content } }

    /// The activity's live update token (nil once it ended: its token is dead).
    public func updateToken(ofActivity id: String) -> Data? {
        state.withLock { state in state.activities[id].flatMap { $0.isLive ? $0.token : nil } }
    }

    /// The device's push-to-start token for the attributes type (nil before the app asked for
    /// one, and before iOS 17.2).
    public func pushToStartToken(forAttributesType type: String) -> Data? {
        state.withLock { $0.pushToStartTokens[type] }
    }
}
