public import Foundation

/// A Live Activity of the app: its attributes, content, state and push tokens.
public class Activity<Attributes>: Identifiable where Attributes: ActivityAttributes {
    public typealias ContentState = Attributes.ContentState
    public typealias ID = String

    /// The system's ID of the activity.
    final public let id: String
    /// The activity's static data.
    final public let attributes: Attributes
    let device: SimulatedActivityDevice

    init(id: String, attributes: Attributes, device: SimulatedActivityDevice) {
        self.id = id
        self.attributes = attributes
        self.device = device
    }

    /// An activity from the device's record, decoded with the app's types (nil if it does not decode).
    static func make(_ entry: ActivityEntry, on device: SimulatedActivityDevice) -> Activity<Attributes>? {
        guard let attributes = try? JSONDecoder().decode(Attributes.self, from: entry.attributes) else { return nil }
        return Activity(id: entry.id, attributes: attributes, device: device)
    }

    static var typeName: String { attributesTypeName(Attributes.self) }

    /// The bound device, told that the app has `Attributes`.
    static var device: SimulatedActivityDevice {
        let device = SimulatedActivityDevice.current
        device.declare(Attributes.self)
        return device
    }

    /// Starts an activity from the app (in the foreground), updatable by push to its own token
    /// when `pushType` is `.token`.
    public static func request(attributes: Attributes, content: ActivityContent<Activity<Attributes>.ContentState>, pushType: PushType? = nil) throws -> Activity<Attributes> {
        let device = device
        let encoder = JSONEncoder()
        let id = try device.request(
            attributesType: typeName, attributes: encoder.encode(attributes), content: encoder.encode(content.state),
            staleDate: content.staleDate, relevanceScore: content.relevanceScore, token: pushType == .token)
        return Activity(id: id, attributes: attributes, device: device)
    }

    /// The app's activities of this type that are still on screen.
    public static var activities: [Activity<Attributes>] {
        let device = device
        return device.entries(ofType: typeName).compactMap { make($0, on: device) }
    }

    /// The activities started from now on (by the app, or by a push-to-start).
    public static var activityUpdates: Activity<Attributes>.ActivityUpdates {
        ActivityUpdates(device: device, typeName: typeName)
    }

    /// The device's push-to-start token for this type: the current one, then each rotation
    /// (iOS 17.2 and later).
    public static var pushToStartTokenUpdates: Activity<Attributes>.PushTokenUpdates {
        let device = device
        let typeName = typeName
        return PushTokenUpdates { device.pushToStartTokens(ofType: typeName) }
    }

    /// The current push-to-start token, if the system made one.
    public static var pushToStartToken: Data? {
        device.currentPushToStartToken(ofType: typeName)
    }

    /// Where the activity is in its life.
    public var activityState: ActivityState {
        device.entry(id)?.state ?? .dismissed
    }

    /// Each change of ``activityState`` from now on.
    public var activityStateUpdates: Activity<Attributes>.ActivityStateUpdates {
        let device = device
        let id = id
        return ActivityStateUpdates { device.entry(id)?.states.subscribe() ?? AsyncStream { $0.finish() } }
    }

    /// The content shown now.
    public var content: ActivityContent<Activity<Attributes>.ContentState> {
        guard let entry = device.entry(id) else { preconditionFailure("the device has no activity \(id)") }
        // Every content state the device keeps decoded into ContentState when it was applied.
        let state = try! JSONDecoder().decode(ContentState.self, from: entry.content)
        return ActivityContent(state: state, staleDate: entry.staleDate, relevanceScore: entry.relevanceScore)
    }

    /// The update token, while the activity is live.
    public var pushToken: Data? {
        device.entry(id).flatMap { $0.isLive ? $0.token : nil }
    }

    /// The update token: the current one, then each rotation; ends when the activity ends.
    public var pushTokenUpdates: Activity<Attributes>.PushTokenUpdates {
        let device = device
        let id = id
        return PushTokenUpdates { device.updateTokens(ofActivity: id) }
    }

    /// Updates the content from the app.
    public func update(_ content: ActivityContent<Activity<Attributes>.ContentState>) async {
        guard let data = try? JSONEncoder().encode(content.state) else { return }
        device.update(activity: id, content: data, staleDate: content.staleDate, relevanceScore: content.relevanceScore)
    }

    /// Ends the activity from the app, with a last content if given.
    public func end(_ content: ActivityContent<Activity<Attributes>.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        let data = content.flatMap { try? JSONEncoder().encode($0.state) }
        let at: Date? = dismissalPolicy.immediately ? .distantPast : dismissalPolicy.date
        device.end(activity: id, content: data, dismissAt: at)
    }
}
