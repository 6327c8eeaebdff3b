import Foundation
import Testing
import UserNotificationsShim

@Suite("UNUserNotificationCenter: the category registry and reads")
struct UNUserNotificationCenterTests {
    @Test func setNotificationCategoriesReplacesTheWholeSet() async {
        let center = SimulatedDevice().center
        center.setNotificationCategories([category("A", buttons: ["a"]), category("B", buttons: ["b"])])
        center.setNotificationCategories([category("C", buttons: ["c"])])
        let identifiers = await center.notificationCategories().map(\.identifier)
        #expect(identifiers == ["C"])
    }

    @Test func registeringOnlyTheNewCategoryWipesTheAppsCategories() async {
        let device = SimulatedDevice()
        device.center.setNotificationCategories([category("MESSAGE", buttons: ["reply"]), category("INVITE", buttons: ["accept", "decline"])])

        await device.deliver(payload: payload(category: "nb_1", extra: ["test_buttons": ["yes"]]),
                             to: MergingServiceExtension(merge: false))

        let naive = await device.center.notificationCategories().map(\.identifier).sorted()
        #expect(naive == ["nb_1"], "the app's own categories are gone")

        device.center.setNotificationCategories([category("MESSAGE", buttons: ["reply"]), category("INVITE", buttons: ["accept", "decline"])])
        await device.deliver(payload: payload(category: "nb_2", extra: ["test_buttons": ["yes"]]),
                             to: MergingServiceExtension(merge: true))
        let merged = await device.center.notificationCategories().map(\.identifier).sorted()
        #expect(merged == ["INVITE", "MESSAGE", "nb_2"])
    }

    /// On iOS the set written may not be what is read a moment later: with a write latency, reads
    /// and notifications drawn meanwhile see the old set; writes apply in order.
    @Test func aWriteIsNotVisibleUntilItApplies() async throws {
        let device = SimulatedDevice()
        device.center.setNotificationCategories([category("OLD", buttons: ["o"])])
        device.categoryWriteLatency = .fixed(.milliseconds(150))
        device.center.setNotificationCategories([category("NEW", buttons: ["n"])])
        device.center.setNotificationCategories([category("NEWER", buttons: ["n"])])
        #expect(await device.center.notificationCategories().map(\.identifier) == ["OLD"])
        // A notification shown before the write applies is drawn without the new category.
        let early = await device.deliver(payload: payload(category: "NEW"), to: nil)
        #expect(early.buttons.isEmpty && early.buttonsReason == .categoryNotRegistered)
        try await Task.sleep(for: .milliseconds(400))
        #expect(await device.center.notificationCategories().map(\.identifier) == ["NEWER"])
    }

    @Test func aReadAfterAWriteSeesItAndAnEarlierReadDoesNot() async {
        let device = SimulatedDevice()
        device.readLatency = .fixed(.milliseconds(100))
        let center = device.center
        let answers = Recorder<[String]>()

        center.setNotificationCategories([category("A", buttons: [])])
        center.getNotificationCategories { answers.record($0.map(\.identifier)) }
        center.setNotificationCategories([category("B", buttons: [])])
        center.getNotificationCategories { answers.record($0.map(\.identifier)) }

        #expect(await answers.wait(for: 2) == [["A"], ["B"]])
    }

    @Test func readsAnswerLaterOnAnotherThreadAfterTheLatency() async {
        let device = SimulatedDevice()
        device.readLatency = .fixed(.milliseconds(150))
        let answers = Recorder<(thread: UInt, at: ContinuousClock.Instant)>()
        let caller = currentThreadID()
        let start = ContinuousClock.now

        device.center.getNotificationCategories { _ in answers.record((currentThreadID(), .now)) }
        device.center.getDeliveredNotifications { _ in answers.record((currentThreadID(), .now)) }
        #expect(answers.count == 0, "never answered inside the call")

        let received = await answers.wait(for: 2)
        #expect(received.count == 2)
        for answer in received {
            #expect(answer.thread != caller)
            #expect(start.duration(to: answer.at) >= .milliseconds(150))
        }
    }

    @Test func answersKeepTheOrderOfTheReadsUnderRandomLatency() async {
        let device = SimulatedDevice()
        device.readLatency = .random(in: .zero ... .milliseconds(60), seed: 42)
        let answers = Recorder<String>()
        for index in 0..<15 {
            device.center.setNotificationCategories([category("C\(index)", buttons: [])])
            device.center.getNotificationCategories { answers.record($0.first?.identifier ?? "none") }
        }
        #expect(await answers.wait(for: 15) == (0..<15).map { "C\($0)" })
    }

    @Test func aHangingSystemNeverAnswers() async {
        let device = SimulatedDevice()
        device.readLatency = .never
        let answers = Recorder<Int>()
        device.center.getNotificationCategories { answers.record($0.count) }
        device.center.getDeliveredNotifications { answers.record($0.count) }
        try? await Task.sleep(for: .milliseconds(300))
        #expect(answers.count == 0)

        device.readLatency = .immediate
        device.center.getNotificationCategories { answers.record($0.count) }
        #expect(await answers.wait(for: 1) == [0], "later reads answer once the system recovers")
    }

    @Test func deliveredNotificationsListWhatIsOnScreen() async {
        let device = SimulatedDevice()
        await device.deliver(payload: payload(), identifier: "one", to: nil)
        await device.deliver(payload: payload(), identifier: "two", to: nil)
        await device.deliver(payload: payload(title: "Updated"), identifier: "one", to: nil)

        let delivered = await device.center.deliveredNotifications()
        #expect(delivered.map(\.request.identifier) == ["two", "one"], "the same identifier replaces")
        #expect(delivered.last?.request.content.title == "Updated")

        device.center.removeDeliveredNotifications(withIdentifiers: ["two"])
        #expect(await device.center.deliveredNotifications().map(\.request.identifier) == ["one"])
        device.center.removeAllDeliveredNotifications()
        #expect(await device.center.deliveredNotifications().isEmpty)
    }

    @Test(arguments: [true, false])
    func authorizationIsAskedOnceAndRemembered(answer: Bool) async throws {
        let device = SimulatedDevice()
        device.authorizationAnswer = answer
        let first = try await device.center.requestAuthorization(options: [.alert, .sound])
        device.authorizationAnswer = !answer
        let second = try await device.center.requestAuthorization(options: [.alert, .sound, .badge])

        let answers = Recorder<Bool?>()
        device.center.requestAuthorization(options: [.alert]) { granted, error in
            answers.record(error == nil ? granted : nil)
        }
        #expect(first == answer)
        #expect(second == answer, "asking again does not prompt again")
        #expect(await answers.wait(for: 1) == [answer])
        #expect(device.authorizationPromptCount == 1)
    }

    @Test func currentIsTheCenterOfTheBoundDevice() async {
        let phoneA = SimulatedDevice(name: "A")
        let phoneB = SimulatedDevice(name: "B")
        phoneA.withCurrent { UNUserNotificationCenter.current().setNotificationCategories([category("A", buttons: [])]) }
        await phoneB.withCurrent {
            await Task.yield()
            UNUserNotificationCenter.current().setNotificationCategories([category("B", buttons: [])])
            #expect(UNUserNotificationCenter.current() === phoneB.center)
        }

        #expect(await phoneA.center.notificationCategories().map(\.identifier) == ["A"])
        #expect(await phoneB.center.notificationCategories().map(\.identifier) == ["B"])
        #expect(UNUserNotificationCenter.current() === SimulatedDevice.default.center)

        let seenInAnswer = Recorder<Bool>()
        phoneA.center.getNotificationCategories { _ in seenInAnswer.record(UNUserNotificationCenter.current() === phoneA.center) }
        #expect(await seenInAnswer.wait(for: 1) == [true], "answers run with their device bound")
        #expect(SimulatedDevice.$bound.withValue(phoneA) { UNUserNotificationCenter.current() } === phoneA.center)
    }

    @Test func theDelegateIsHeldWeakly() {
        let center = SimulatedDevice().center
        var delegate: RecordingDelegate? = RecordingDelegate()
        center.delegate = delegate
        #expect(center.delegate === delegate)
        delegate = nil
        #expect(center.delegate == nil)
    }
}
