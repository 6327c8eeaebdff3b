import Foundation
import Testing
import UserNotificationsShim

/// What iOS does to the app around its notifications: the delegate on the main thread, the
/// foreground presentation, authorization refused or failing.
@Suite("SimulatedDevice: the app's side, as iOS treats it")
struct SimulatedAppTests {
    @Test func theDelegateIsCalledOnTheMainThread() async throws {
        let delegate = RecordingDelegate()
        let device = SimulatedDevice()
        device.center.delegate = delegate
        device.center.setNotificationCategories([category("ORDER", buttons: ["track"])])
        await device.deliver(payload: payload(category: "ORDER", mutable: false), identifier: "n1", to: nil)
        try await device.tap(button: "track", inNotification: "n1")
        #expect(delegate.onMainThread.all == [true])
    }

    /// With the app in the foreground, a notification is shown only as the delegate's `willPresent`
    /// says; without a delegate (or without that method), not at all.
    @Test func inTheForegroundOnlyWillPresentShowsANotification() async throws {
        let device = SimulatedDevice()
        device.appIsInForeground = true
        let unseen = await device.deliver(payload: payload(), identifier: "no delegate", to: nil)
        #expect(unseen.foregroundPresentation == [])
        #expect(await device.center.deliveredNotifications().isEmpty)

        let delegate = RecordingDelegate(presentation: [.banner, .sound])
        device.center.delegate = delegate
        let shown = await device.deliver(payload: payload(), identifier: "presented", to: nil)
        #expect(shown.foregroundPresentation == [.sound, .banner])
        #expect(delegate.onMainThread.all == [true])
        #expect(await device.center.deliveredNotifications().map(\.request.identifier) == ["presented"])

        device.appIsInForeground = false
        let background = await device.deliver(payload: payload(), identifier: "background", to: nil)
        #expect(background.foregroundPresentation == nil)
    }

    @Test func authorizationCanBeRefusedOrFail() async throws {
        let refusing = SimulatedDevice()
        refusing.authorizationAnswer = false
        #expect(try await refusing.center.requestAuthorization(options: [.alert]) == false)

        let failing = SimulatedDevice()
        failing.authorizationFailure = .notificationsNotAllowed
        await #expect(throws: UNError.self) { try await failing.center.requestAuthorization(options: [.alert]) }
        let answer = Recorder<(Bool, Bool)>()
        failing.center.requestAuthorization(options: [.alert]) { granted, error in answer.record((granted, error != nil)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(answer.all.map(\.0) == [false] && answer.all.map(\.1) == [true])
    }
}
