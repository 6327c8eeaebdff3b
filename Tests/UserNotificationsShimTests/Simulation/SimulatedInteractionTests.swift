import Foundation
import Testing
import UserNotificationsShim

@Suite("SimulatedDevice: taps and dismissals reach the app's delegate")
struct SimulatedInteractionTests {
    /// A device with a delegate and a delivered notification drawn from `category`.
    static func deviceShowing(_ category: UNNotificationCategory, delegate: RecordingDelegate)
        async -> (SimulatedDevice, DrawnNotification) {
        let device = SimulatedDevice()
        device.center.delegate = delegate
        device.center.setNotificationCategories([category])
        let drawn = await device.deliver(payload: payload(category: category.identifier, mutable: false), identifier: "n1", to: nil)
        return (device, drawn)
    }

    @Test func tappingAButtonSendsItsIdentifierToTheDelegate() async throws {
        let delegate = RecordingDelegate()
        let (device, _) = await Self.deviceShowing(category("ORDER", buttons: ["track", "cancel"]), delegate: delegate)
        let caller = currentThreadID()

        let interaction = try await device.tap(button: "cancel", inNotification: "n1")

        let response = try #require(delegate.responses.all.first)
        #expect(response.actionIdentifier == "cancel")
        #expect(response.requestIdentifier == "n1")
        #expect(response.userText == nil)
        #expect(response.thread != caller)
        #expect(interaction.delegateOutcome == .completed)
        #expect(interaction.opensApp == false)
        #expect(await device.center.deliveredNotifications().isEmpty, "the notification leaves the screen")
    }

    @Test func aTextInputButtonSendsTheTypedText() async throws {
        let delegate = RecordingDelegate()
        let reply = UNTextInputNotificationAction(identifier: "reply", title: "Reply", options: [.foreground],
                                                  textInputButtonTitle: "Send", textInputPlaceholder: "Message")
        let (device, _) = await Self.deviceShowing(UNNotificationCategory(identifier: "CHAT", actions: [reply], intentIdentifiers: []),
                                                   delegate: delegate)

        let interaction = try await device.tap(button: "reply", inNotification: "n1", userText: "On my way")

        #expect(delegate.responses.all.first?.userText == "On my way")
        #expect(interaction.userText == "On my way")
        #expect(interaction.opensApp)
    }

    @Test func tappingTheNotificationSendsTheDefaultAction() async throws {
        let delegate = RecordingDelegate()
        let (device, _) = await Self.deviceShowing(category("ORDER", buttons: ["track"]), delegate: delegate)
        let interaction = try await device.tapNotification("n1")
        #expect(delegate.responses.all.map(\.actionIdentifier) == [UNNotificationDefaultActionIdentifier])
        #expect(UNNotificationDefaultActionIdentifier == "com.apple.UNNotificationDefaultActionIdentifier")
        #expect(interaction.opensApp)
    }

    @Test(arguments: [true, false])
    func aDismissalIsReportedOnlyWithCustomDismissAction(customDismiss: Bool) async throws {
        let delegate = RecordingDelegate()
        let options: UNNotificationCategoryOptions = customDismiss ? .customDismissAction : []
        let (device, _) = await Self.deviceShowing(category("ORDER", buttons: ["track"], options: options), delegate: delegate)

        let interaction = try await device.dismissNotification("n1")

        #expect(delegate.responses.all.map(\.actionIdentifier) == (customDismiss ? [UNNotificationDismissActionIdentifier] : []))
        #expect(interaction.delegateOutcome == (customDismiss ? .completed : .notReported))
        #expect(UNNotificationDismissActionIdentifier == "com.apple.UNNotificationDismissActionIdentifier")
        #expect(await device.center.deliveredNotifications().isEmpty)
    }

    @Test func aButtonThatWasNotDrawnCannotBeTapped() async throws {
        let device = SimulatedDevice()
        let drawn = await device.deliver(payload: payload(category: "NOT_REGISTERED", mutable: false), identifier: "n1", to: nil)
        #expect(drawn.buttons.isEmpty)
        await #expect(throws: SimulationError.buttonNotShown("track", inNotification: "n1")) {
            try await device.tap(button: "track", inNotification: "n1")
        }
        await #expect(throws: SimulationError.notDelivered("other")) { try await device.tapNotification("other") }
    }

    @Test func textCannotBeTypedIntoAPlainButton() async throws {
        let (device, _) = await Self.deviceShowing(category("ORDER", buttons: ["track"]), delegate: RecordingDelegate())
        await #expect(throws: SimulationError.notATextInputButton("track")) {
            try await device.tap(button: "track", inNotification: "n1", userText: "hello")
        }
    }

    @Test func withoutADelegateTheResponseIsLost() async throws {
        let device = SimulatedDevice()
        await device.deliver(payload: payload(mutable: false), identifier: "n1", to: nil)
        #expect(try await device.tapNotification("n1").delegateOutcome == .noDelegate)
    }

    @Test func aDelegateThatNeverCompletesIsReported() async throws {
        let delegate = RecordingDelegate(completes: false)
        let (device, _) = await Self.deviceShowing(category("ORDER", buttons: ["track"]), delegate: delegate)
        device.delegateCompletionTimeout = .milliseconds(100)
        #expect(try await device.tap(button: "track", inNotification: "n1").delegateOutcome == .completionHandlerNotCalled)
    }

    @Test func aDelegateMayImplementOnlyTheAsyncForm() async throws {
        let delegate = AsyncDelegate()
        let device = SimulatedDevice()
        device.center.delegate = delegate
        await device.deliver(payload: payload(mutable: false), identifier: "n1", to: nil)
        #expect(try await device.tapNotification("n1").delegateOutcome == .completed)
        #expect(delegate.actions.all == [UNNotificationDefaultActionIdentifier])
    }
}
