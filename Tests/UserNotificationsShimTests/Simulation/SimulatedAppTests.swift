import Foundation
import Testing
import UserNotificationsShim
import NotibaseTestSupport

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

/// iOS suspends the extension once it handed over its last notification, and kills a process
/// suspended while it holds a file lock in a shared container.
@Suite("SimulatedDevice: a file lock held when the extension may be suspended")
struct SuspendedLockTests {
    /// An extension that locks `test_file` with `flock`, then each of `others`, and lets go of
    /// them before or after calling the handler.
    static func locking(releaseFirst: Bool, others: [String] = []) -> ClosureExtension {
        ClosureExtension { request, handler in
            let path = request.content.userInfo["test_file"] as! String
            let descriptor = open(path, O_RDWR | O_CREAT, 0o644)
            flock(descriptor, LOCK_EX)
            let held = others.map { other in
                let descriptor = open(other, O_RDWR | O_CREAT, 0o644)
                flock(descriptor, LOCK_EX)
                return descriptor
            }
            if releaseFirst {
                for other in held { close(other) }
                flock(descriptor, LOCK_UN)
                handler(request.content)
            } else {
                handler(request.content)
                Thread.sleep(forTimeInterval: 0.2)
                for other in held { close(other) }
                flock(descriptor, LOCK_UN)
            }
            close(descriptor)
        }
    }

    @Test func aLockHeldAtTheHandlerIsAViolation() async throws {
        let files = TemporaryDirectory()
        let device = SimulatedDevice()
        device.sharedContainers = [files.url]
        let lockFile = files.url.appendingPathComponent("app.lock").path
        let held = await device.deliver(payload: payload(extra: ["test_file": lockFile]), to: Self.locking(releaseFirst: false))
        #expect(held.violations == [.fileLockHeldWhileSuspended])
        let released = await device.deliver(payload: payload(extra: ["test_file": lockFile]), to: Self.locking(releaseFirst: true))
        #expect(released.violations.isEmpty)
    }

    /// `/proc/locks` lists the newest lock first: with locks taken after the extension's (as the
    /// test pass's databases do), its line is far down a table longer than one read.
    @Test func aLockHeldIsSeenPastHundredsOfOtherLocks() async throws {
        let files = TemporaryDirectory()
        let elsewhere = TemporaryDirectory()
        let device = SimulatedDevice()
        device.sharedContainers = [files.url]
        let lockFile = files.url.appendingPathComponent("app.lock").path
        let others = (0..<300).map { elsewhere.url.appendingPathComponent("other-\($0).lock").path }
        let drawn = await device.deliver(payload: payload(extra: ["test_file": lockFile]), to: Self.locking(releaseFirst: false, others: others))
        #expect(drawn.violations == [.fileLockHeldWhileSuspended])
    }

    @Test func aLockOutsideTheContainersIsNotChecked() async throws {
        let files = TemporaryDirectory()
        let elsewhere = TemporaryDirectory()
        let device = SimulatedDevice()
        device.sharedContainers = [files.url]
        let lockFile = elsewhere.url.appendingPathComponent("private.lock").path
        let drawn = await device.deliver(payload: payload(extra: ["test_file": lockFile]), to: Self.locking(releaseFirst: false))
        #expect(drawn.violations.isEmpty)
    }
}
