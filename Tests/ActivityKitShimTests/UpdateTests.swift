import ActivityKitShim
import Foundation
import Testing

@Suite("ActivityKit stand-in: updates, ends and the budget")
struct UpdateTests {
    @Test func anUpdateNotNewerThanTheLastAppliedIsIgnored() async throws {
        let phone = SimulatedActivityDevice()
        let (id, token) = try await phone.startByPush(timestamp: 1000)
        #expect(phone.deliver(livePush("update", timestamp: 1010, contentState: ["status": "on its way", "minutesLeft": 10]), to: token) == .updated(activityID: id))
        #expect(phone.deliver(livePush("update", timestamp: 1005, contentState: ["status": "cooking", "minutesLeft": 15]), to: token)
            == .ignored(.outOfOrder(timestamp: 1005, lastApplied: 1010)))
        #expect(phone.deliver(livePush("update", timestamp: 1010, contentState: ["status": "cooking", "minutesLeft": 15]), to: token)
            == .ignored(.outOfOrder(timestamp: 1010, lastApplied: 1010)))
        #expect(phone.content(of: id) == .init(status: "on its way", minutesLeft: 10))
    }

    @Test(arguments: [
        #"{"status": "late"}"#,  // a key missing
        #"{"status": "late", "minutesLeft": "ten"}"#,  // a wrong type
        #"{"status": "late", "minutesLeft": 2.5}"#,  // not an integer
    ])
    func aContentStateThatDoesNotDecodeIsDropped(_ json: String) async throws {
        let state = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let phone = SimulatedActivityDevice()
        let (id, token) = try await phone.startByPush()
        guard case .ignored(.contentStateDoesNotDecode(id, _)) = phone.deliver(livePush("update", timestamp: 2000, contentState: state), to: token) else {
            Issue.record("applied: \(phone.outcomes)")
            return
        }
        #expect(phone.content(of: id) == .init(status: "cooking", minutesLeft: 20))
        // Dropped, not applied: its timestamp does not hold back the next good update.
        #expect(phone.deliver(livePush("update", timestamp: 2000, contentState: ["status": "late", "minutesLeft": 5]), to: token) == .updated(activityID: id))
    }

    @Test func priority10PushesBeyondTheBudgetAreDroppedAndPriority5OnesAreNot() async throws {
        let phone = SimulatedActivityDevice(budget: Priority10Budget(pushes: 3, window: .seconds(3600)))
        let (id, token) = try await phone.startByPush(timestamp: 1)  // the start spends one
        #expect(phone.deliver(livePush("update", timestamp: 2), to: token, priority: 10) == .updated(activityID: id))
        #expect(phone.deliver(livePush("update", timestamp: 3), to: token, priority: 10) == .updated(activityID: id))
        #expect(phone.deliver(livePush("update", timestamp: 4), to: token, priority: 10) == .ignored(.budgetExhausted))
        #expect(phone.deliver(livePush("update", timestamp: 5), to: token, priority: 5) == .updated(activityID: id))
        phone.advance(by: .seconds(3601))
        #expect(phone.deliver(livePush("update", timestamp: 6), to: token, priority: 10) == .updated(activityID: id))
    }

    @Test func aRotatedUpdateTokenIsDeadAndTheAppGetsTheNewOne() async throws {
        let phone = SimulatedActivityDevice()
        let (id, old) = try await phone.startByPush()
        let fresh = await SimulatedActivityDevice.$bound.withValue(phone) { () async -> Data? in
            guard let activity = Activity<DeliveryAttributes>.activities.first else { return nil }
            let tokens = activity.pushTokenUpdates.makeAsyncIterator()
            #expect(await tokens.next() == old)
            phone.rotateUpdateToken(ofActivity: id)
            return await tokens.next()
        }
        let new = try #require(fresh)
        #expect(new != old)
        #expect(phone.deliver(livePush("update", timestamp: 2000), to: old) == .ignored(.deadToken))
        #expect(phone.deliver(livePush("update", timestamp: 2000), to: new) == .updated(activityID: id))
    }

    @Test func anEndedActivitysTokenIsDeadAndItIsDismissedAtItsDismissalDate() async throws {
        let phone = SimulatedActivityDevice(now: Date(timeIntervalSince1970: 1_000_000))
        let (id, token) = try await phone.startByPush()
        let states = await SimulatedActivityDevice.$bound.withValue(phone) { () async -> [ActivityState] in
            guard let activity = Activity<DeliveryAttributes>.activities.first else { return [] }
            let updates = activity.activityStateUpdates.makeAsyncIterator()
            let end = livePush("end", timestamp: 2000, contentState: ["status": "delivered", "minutesLeft": 0], extra: ["dismissal-date": 1_000_600])
            #expect(phone.deliver(end, to: token) == .ended(activityID: id))
            phone.advance(by: .seconds(599))
            #expect(phone.state(ofActivity: id) == .ended)
            phone.advance(by: .seconds(1))
            var seen: [ActivityState] = []
            while let state = await updates.next() { seen.append(state) }
            return seen
        }
        #expect(states == [.ended, .dismissed])
        #expect(phone.content(of: id) == .init(status: "delivered", minutesLeft: 0))
        #expect(phone.updateToken(ofActivity: id) == nil)
        #expect(phone.deliver(livePush("update", timestamp: 3000), to: token) == .ignored(.deadToken))
    }

    @Test func theUserDismissingAnActivityKillsItsToken() async throws {
        let phone = SimulatedActivityDevice()
        let (id, token) = try await phone.startByPush()
        phone.userDismisses(activity: id)
        #expect(phone.state(ofActivity: id) == .dismissed)
        #expect(phone.deliver(livePush("update", timestamp: 2000), to: token) == .ignored(.deadToken))
        #expect(SimulatedActivityDevice.$bound.withValue(phone) { Activity<DeliveryAttributes>.activities.isEmpty })
    }

    @Test func anActivityPastItsStaleDateIsStaleUntilANewUpdate() async throws {
        let phone = SimulatedActivityDevice(now: Date(timeIntervalSince1970: 1_000_000))
        let (id, token) = try await phone.startByPush()
        phone.deliver(livePush("update", timestamp: 2000, extra: ["stale-date": 1_000_060]), to: token, priority: 5)
        phone.advance(by: .seconds(61))
        #expect(phone.state(ofActivity: id) == .stale)
        phone.deliver(livePush("update", timestamp: 2001, extra: ["stale-date": 1_000_600]), to: token, priority: 5)
        #expect(phone.state(ofActivity: id) == .active)
    }

    @Test func theAppRequestsOnlyInTheForeground() async throws {
        let phone = SimulatedActivityDevice()
        phone.appIsInForeground = false
        let content = ActivityContent(state: DeliveryAttributes.ContentState(status: "cooking", minutesLeft: 20), staleDate: nil)
        #expect(throws: ActivityAuthorizationError.visibility) {
            try SimulatedActivityDevice.$bound.withValue(phone) {
                _ = try Activity.request(attributes: DeliveryAttributes(orderNumber: "A"), content: content, pushType: .token)
            }
        }
        phone.appIsInForeground = true
        let activity = try SimulatedActivityDevice.$bound.withValue(phone) {
            try Activity.request(attributes: DeliveryAttributes(orderNumber: "A"), content: content, pushType: .token)
        }
        #expect(activity.pushToken != nil)
        await activity.end(nil, dismissalPolicy: .immediate)
        #expect(activity.activityState == .dismissed)
        #expect(activity.pushToken == nil)
    }
}
