#if os(iOS) || os(Linux)
import Foundation
import NotibaseCore
import NotibaseExtension
#if os(iOS)
import ActivityKit
#else
import ActivityKitShim
#endif

/// The app's Live Activities, reported to Notibase: `Notibase.liveActivities.observe(DeliveryAttributes.self)`
/// at launch, once per attributes type.
public struct LiveActivities: Sendable {
    let client: NotibaseClient?

    /// Reports, for `Attributes`, from now on and for as long as the app runs: the device's
    /// push-to-start token (iOS 17.2 and later; with the `ContentState`'s keys and types, so the
    /// server can explain a content state the app would drop) and each rotation of it; each
    /// activity's update token under its ``NotibaseActivityAttributes/notibaseActivityID``, and each
    /// rotation; when an activity ends, and when it leaves the screen (the person dismissed it, or
    /// the system removed it after it ended). Activities already running are included, and so
    /// are the ones a push-to-start makes while the app runs, which is how iOS launches the app in
    /// the background: call this in `application(_:didFinishLaunchingWithOptions:)`, after
    /// `Notibase.configure`. Reports go with the registered device's token, retried until the
    /// server has them. Observing a type twice does nothing more.
    @available(iOS 16.1, *)
    public func observe<Attributes: NotibaseActivityAttributes>(_ type: Attributes.Type) {
        guard let client else {
            SDKLog.misconfigured(
                "Notibase.liveActivities.observe(_:) was called before Notibase.configure(_:), and did nothing. "
                    + "Call configure first thing in application(_:didFinishLaunchingWithOptions:)")
            return
        }
        let typeName = String(describing: Attributes.self)
        guard client.liveActivityTypes.withLock({ $0.insert(typeName).inserted }) else { return }
        if #available(iOS 17.2, *) {
            observePushToStartTokens(Attributes.self, typeName: typeName, client: client)
        }
        Task {
            // Subscribed before listing, so an activity started in between is in one or the other.
            let started = Activity<Attributes>.activityUpdates.makeAsyncIterator()
            for activity in Activity<Attributes>.activities {
                watch(activity, client: client)
            }
            while let activity = await started.next() {
                watch(activity, client: client)
            }
        }
    }

    @available(iOS 17.2, *)
    private func observePushToStartTokens<Attributes: NotibaseActivityAttributes>(_ type: Attributes.Type, typeName: String, client: NotibaseClient) {
        let schema: ContentStateSchema?
        do {
            schema = try ContentStateSchema(recording: Attributes.ContentState.self)
        } catch {
            SDKLog.error("\(error)")
            schema = nil
        }
        Task {
            for await token in Activity<Attributes>.pushToStartTokenUpdates {
                client.report(LiveActivityReport(
                    deviceToken: "", kind: .pushToStartToken, attributesType: typeName, token: DeviceRegistrationRequest.hex(token),
                    contentStateSchema: schema))
            }
        }
    }

    /// Reports the activity's tokens and its end. Each task finds the activity again by its system
    /// ID (an `Activity` is not `Sendable`): one that is gone was dismissed.
    @available(iOS 16.1, *)
    private func watch<Attributes: NotibaseActivityAttributes>(_ activity: Activity<Attributes>, client: NotibaseClient) {
        let systemID = activity.id
        let activityID = activity.attributes.notibaseActivityID
        let typeName = String(describing: Attributes.self)
        guard client.watchedActivities.withLock({ $0.insert(systemID).inserted }) else { return }
        let report: @Sendable (LiveActivityReport.Kind, Data?) -> Void = { kind, token in
            client.report(LiveActivityReport(
                deviceToken: "", kind: kind, attributesType: token == nil ? nil : typeName, activityId: activityID,
                token: token.map(DeviceRegistrationRequest.hex)))
        }
        Task {
            guard let activity = Activity<Attributes>.activities.first(where: { $0.id == systemID }) else { return }
            for await token in activity.pushTokenUpdates {
                report(.updateToken, token)
            }
        }
        Task {
            guard let activity = Activity<Attributes>.activities.first(where: { $0.id == systemID }) else {
                report(.dismissed, nil)
                return
            }
            let changes = activity.activityStateUpdates.makeAsyncIterator()
            var state: ActivityState? = activity.activityState
            while let current = state {
                if current == .ended {
                    report(.ended, nil)
                } else if current == .dismissed {
                    report(.dismissed, nil)
                    return
                }
                state = await changes.next()
            }
        }
    }
}
#endif
