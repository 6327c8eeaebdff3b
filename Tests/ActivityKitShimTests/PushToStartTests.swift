import ActivityKitShim
import Foundation
import Testing

@Suite("ActivityKit stand-in: push-to-start")
struct PushToStartTests {
    @Test func aStartPushMakesAnActivityTheAppSeesWithAnUpdateToken() async throws {
        let phone = SimulatedActivityDevice(iOSVersion: .init(17, 5))
        let startToken = try #require(await phone.askForPushToStartToken())
        let started = await SimulatedActivityDevice.$bound.withValue(phone) { () async -> Activity<DeliveryAttributes>? in
            let updates = Activity<DeliveryAttributes>.activityUpdates.makeAsyncIterator()
            phone.deliver(startPush(orderNumber: "A-17"), to: startToken)
            return await updates.next()
        }
        let activity = try #require(started)
        #expect(activity.attributes.orderNumber == "A-17")
        #expect(activity.activityState == .active)
        #expect(activity.content.state == .init(status: "cooking", minutesLeft: 20))
        let token = try #require(try await first(activity.pushTokenUpdates))
        #expect(token == phone.updateToken(ofActivity: activity.id))
        #expect(SimulatedActivityDevice.$bound.withValue(phone) { Activity<DeliveryAttributes>.activities.map(\.id) } == [activity.id])
    }

    @Test func withoutInputPushTokenTheActivityHasNoUpdateToken() async throws {
        let phone = SimulatedActivityDevice()
        let startToken = try #require(await phone.askForPushToStartToken())
        guard case .started(let id) = phone.deliver(startPush(inputPushToken: false), to: startToken) else {
            Issue.record("not started")
            return
        }
        #expect(phone.updateToken(ofActivity: id) == nil)
    }

    @Test func beforeIOS17_2AStartPushDoesNothingAndThereIsNoToken() async throws {
        let phone = SimulatedActivityDevice(iOSVersion: .init(17, 1))
        #expect(SimulatedActivityDevice.$bound.withValue(phone) { Activity<DeliveryAttributes>.pushToStartToken } == nil)
        let outcome = phone.deliver(startPush(), to: Data(repeating: 1, count: 32))
        #expect(outcome == .ignored(.pushToStartUnsupported(iOSVersion: "17.1")))
        #expect(phone.activityIDs.isEmpty)
    }

    @Test func aRotatedPushToStartTokenIsDeadAndTheAppGetsTheNewOne() async throws {
        let phone = SimulatedActivityDevice()
        let old = try #require(await phone.askForPushToStartToken())
        let fresh = await SimulatedActivityDevice.$bound.withValue(phone) { () async -> Data? in
            let tokens = Activity<DeliveryAttributes>.pushToStartTokenUpdates.makeAsyncIterator()
            _ = await tokens.next()
            phone.rotatePushToStartToken(forAttributesType: "DeliveryAttributes")
            return await tokens.next()
        }
        let new = try #require(fresh)
        #expect(new != old)
        #expect(phone.deliver(startPush(), to: old) == .ignored(.deadToken))
        guard case .started = phone.deliver(startPush(), to: new) else {
            Issue.record("the new token did not start one: \(phone.outcomes)")
            return
        }
    }

    @Test func attributesOrAContentStateTheAppCannotDecodeStartNothing() async throws {
        let phone = SimulatedActivityDevice()
        let token = try #require(await phone.askForPushToStartToken())
        let badAttributes = livePush("start", timestamp: 1, extra: ["attributes-type": "DeliveryAttributes", "attributes": ["order": 1]])
        guard case .ignored(.attributesDoNotDecode) = phone.deliver(badAttributes, to: token) else {
            Issue.record("started with attributes that do not decode")
            return
        }
        let badState = livePush("start", timestamp: 2, contentState: ["status": "cooking"], extra: ["attributes-type": "DeliveryAttributes", "attributes": ["orderNumber": "A"]])
        guard case .ignored(.contentStateDoesNotDecode(nil, _)) = phone.deliver(badState, to: token) else {
            Issue.record("started with a content state that does not decode")
            return
        }
        let unknownType = livePush("start", timestamp: 3, extra: ["attributes-type": "RideAttributes", "attributes": [:] as [String: Any]])
        #expect(phone.deliver(unknownType, to: token) == .ignored(.unknownToken))
        #expect(phone.activityIDs.isEmpty)
    }
}
