import Foundation
import Testing
import UserNotificationsShim

@Suite("SimulatedDevice.deliver: when and how the service extension runs")
struct SimulatedDeliveryTests {
    /// A device for tests. Tests that wait for the budget to run out ask for a short one; the
    /// others get a long one, so that a loaded machine (the whole suite runs in parallel on two
    /// cores) cannot turn "in time" into "too late".
    static func device(budget: Duration = .seconds(10)) -> SimulatedDevice {
        let device = SimulatedDevice()
        device.serviceExtensionTimeBudget = budget
        device.expirationGracePeriod = budget == .seconds(10) ? .seconds(2) : .milliseconds(100)
        return device
    }

    static let expiring = Duration.milliseconds(200)

    struct RunCase: Sendable, CustomTestStringConvertible {
        let name: String
        let mutable: Int?
        let title: String
        let body: String
        let runs: Bool
        let reason: DrawnNotification.ContentReason
        var testDescription: String { name }
    }

    static let runCases = [
        RunCase(name: "mutable-content 1 with alert", mutable: 1, title: "Hi", body: "There", runs: true, reason: .serviceExtensionContent),
        RunCase(name: "body only", mutable: 1, title: "", body: "There", runs: true, reason: .serviceExtensionContent),
        RunCase(name: "no mutable-content", mutable: nil, title: "Hi", body: "There", runs: false, reason: .mutableContentNotSet),
        RunCase(name: "mutable-content 0", mutable: 0, title: "Hi", body: "There", runs: false, reason: .mutableContentNotSet),
        RunCase(name: "badge only", mutable: 1, title: "", body: "", runs: false, reason: .noAlertText),
    ]

    @Test(arguments: runCases)
    func theExtensionRunsOnlyForMutableContentWithAlertText(_ run: RunCase) async {
        var aps: [String: Any] = ["badge": 1]
        if let mutable = run.mutable { aps["mutable-content"] = mutable }
        if !run.title.isEmpty || !run.body.isEmpty { aps["alert"] = ["title": run.title, "body": run.body] }
        let serviceExtension = retitlingExtension("From the extension")

        let drawn = await Self.device().deliver(payload: ["aps": aps], to: serviceExtension)

        #expect(serviceExtension.ran == run.runs)
        #expect(drawn.contentReason == run.reason)
        #expect(drawn.contentSource == (run.runs ? .serviceExtension : .original))
        #expect(drawn.title == (run.runs ? "From the extension" : run.title))
    }

    @Test func withoutAnExtensionTheOriginalIsShown() async {
        let drawn = await Self.device().deliver(payload: payload(title: "Original"), to: nil)
        #expect(drawn.contentReason == .noServiceExtension)
        #expect(drawn.title == "Original")
        #expect(drawn.contentHandlerCallCount == 0)
    }

    @Test func didReceiveRunsOnABackgroundThreadAndExpiryOnAnother() async throws {
        let release = DispatchSemaphore(value: 0)
        let serviceExtension = ClosureExtension(receive: { _, _ in
            // Stay inside didReceive until expiry ran, so both threads are alive when compared.
            _ = release.wait(timeout: .now() + 2)
        }, expire: { release.signal() })
        let caller = currentThreadID()

        let drawn = await Self.device(budget: Self.expiring).deliver(payload: payload(), to: serviceExtension)

        let threads = serviceExtension.threads.all
        let receive = try #require(threads.first { $0.event == "didReceive" })
        let expire = try #require(threads.first { $0.event == "serviceExtensionTimeWillExpire" })
        #expect(receive.thread != caller)
        #expect(expire.thread != receive.thread)
        #expect(drawn.serviceExtensionTimeWillExpireCalled)
    }

    @Test func aSilentExtensionGetsExpiryThenTheOriginalIsShown() async {
        let serviceExtension = ClosureExtension { _, _ in }

        let drawn = await Self.device(budget: Self.expiring).deliver(payload: payload(title: "Original"), to: serviceExtension)

        #expect(serviceExtension.events.all == ["didReceive", "serviceExtensionTimeWillExpire"])
        #expect(drawn.title == "Original")
        #expect(drawn.contentSource == .original)
        #expect(drawn.contentReason == .serviceExtensionTimedOut)
        #expect(drawn.violations == [.contentHandlerNeverCalled])
        #expect(drawn.elapsedSeconds >= 0.3, "budget 0.2 s + grace 0.1 s")
    }

    @Test func theHandlerCanBeCalledFromServiceExtensionTimeWillExpire() async {
        let pending = Recorder<Unchecked<(UNMutableNotificationContent, (UNNotificationContent) -> Void)>>()
        let serviceExtension = ClosureExtension(receive: { request, handler in
            let best = request.content.mutableCopy() as! UNMutableNotificationContent
            best.title = "Best attempt"
            pending.record(Unchecked((best, handler)))
        }, expire: {
            for saved in pending.all { saved.value.1(saved.value.0) }
        })

        let drawn = await Self.device(budget: Self.expiring).deliver(payload: payload(), to: serviceExtension)

        #expect(drawn.serviceExtensionTimeWillExpireCalled)
        #expect(drawn.title == "Best attempt")
        #expect(drawn.contentReason == .serviceExtensionContent)
        #expect(drawn.violations.isEmpty)
    }

    @Test func theHandlerCanBeCalledLaterFromAnyThread() async {
        let serviceExtension = ClosureExtension { request, handler in
            let call = Unchecked((request.content, handler))
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { call.value.1(call.value.0) }
        }
        let drawn = await Self.device().deliver(payload: payload(title: "Late but in time"), to: serviceExtension)
        #expect(drawn.contentReason == .serviceExtensionContent)
        #expect(!drawn.serviceExtensionTimeWillExpireCalled)
        #expect(drawn.contentHandlerCallCount == 1)
    }

    @Test func aHandlerCalledTwiceIsRecorded() async {
        let device = Self.device()
        let serviceExtension = ClosureExtension { request, handler in
            handler(request.content)
            let edited = request.content.mutableCopy() as! UNMutableNotificationContent
            edited.title = "Second call"
            handler(edited)
        }

        let drawn = await device.deliver(payload: payload(title: "First call"), identifier: "twice", to: serviceExtension)

        #expect(drawn.contentHandlerCallCount == 2)
        #expect(drawn.violations == [.contentHandlerCalledMoreThanOnce])
        #expect(drawn.title == "First call", "the first call wins")
        #expect(device.contentHandlerCallCount(forRequest: "twice") == 2)
    }

    @Test func contentWithoutAlertTextIsIgnored() async {
        let serviceExtension = ClosureExtension { _, handler in handler(UNMutableNotificationContent()) }
        let drawn = await Self.device().deliver(payload: payload(title: "Original"), to: serviceExtension)
        #expect(drawn.contentReason == .serviceExtensionContentHasNoAlertText)
        #expect(drawn.contentSource == .original)
        #expect(drawn.title == "Original")
    }

    @Test func editsAfterTheHandlerCallAreNotShown() async {
        let serviceExtension = ClosureExtension { request, handler in
            let content = request.content.mutableCopy() as! UNMutableNotificationContent
            content.title = "Handed over"
            handler(content)
            content.title = "Edited afterwards"
        }
        let drawn = await Self.device().deliver(payload: payload(), to: serviceExtension)
        #expect(drawn.title == "Handed over")
    }

    @Test func currentInsideDidReceiveIsTheDeliveringDevice() async {
        let phoneA = Self.device()
        let phoneB = Self.device()
        await phoneA.deliver(payload: payload(category: "nb_a", extra: ["test_buttons": ["yes"]]), to: MergingServiceExtension())
        await phoneB.deliver(payload: payload(category: "nb_b", extra: ["test_buttons": ["no"]]), to: MergingServiceExtension())

        #expect(await phoneA.center.notificationCategories().map(\.identifier) == ["nb_a"])
        #expect(await phoneB.center.notificationCategories().map(\.identifier) == ["nb_b"])
    }

    @Test func concurrentNaiveMergesLoseCategoriesAndSerialisedOnesDont() async {
        for serialize in [false, true] {
            let device = SimulatedDevice()
            device.readLatency = .fixed(.milliseconds(150))
            device.serviceExtensionTimeBudget = .seconds(2)  // serialised, the second waits for the first
            let first = MergingServiceExtension(serialize: serialize)
            let second = MergingServiceExtension(serialize: serialize)
            async let one = device.deliver(payload: payload(category: "nb_1", extra: ["test_buttons": ["a"]]), to: first)
            async let two = device.deliver(payload: payload(category: "nb_2", extra: ["test_buttons": ["b"]]), to: second)
            let drawn = await [one, two]
            #expect(drawn.allSatisfy { $0.contentReason == .serviceExtensionContent })

            let registered = await device.center.notificationCategories().map(\.identifier)
            if serialize {
                #expect(registered.sorted() == ["nb_1", "nb_2"])
            } else {
                #expect(registered.count == 1, "both read the empty set, the last write wins")
            }
        }
    }

    @Test func aDeliveredNotificationShowsTheDrawnContent() async throws {
        let device = Self.device()
        let drawn = await device.deliver(payload: payload(), identifier: "n1", to: retitlingExtension("Rewritten"))
        let delivered = try #require(await device.center.deliveredNotifications().first)
        #expect(delivered.request.identifier == "n1")
        #expect(delivered.request.content.title == "Rewritten")
        #expect(device.drawnNotification(forRequest: "n1") == drawn)
    }

    @Test func drawnNotificationsRoundTripThroughJSON() async throws {
        let device = Self.device()
        device.center.setNotificationCategories([category("ORDER", buttons: ["track"], options: .customDismissAction)])
        let drawn = await device.deliver(payload: payload(category: "ORDER"), to: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(drawn)
        #expect(try JSONDecoder().decode(DrawnNotification.self, from: json) == drawn)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""buttonsReason":"registeredCategory""#))
        #expect(text.contains(#""categoryOptions":["customDismissAction"]"#))
    }
}
