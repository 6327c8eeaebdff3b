import Foundation
import NotibaseCore
import NotibaseSenders
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

@Suite("Messages: audience, variants, idempotency, scheduling, cancel")
struct MessagesTests {
    @Test func answersAtOnceWithTheAudienceSizeAndDeliversToEveryActiveDevice() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        for number in 1...5 { try await harness.registerDevice(app, number: number) }
        try await harness.registerDevice(app, number: 6, platform: .android)
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Hi", "body": "There"}, "audience": {"all": true}}"#)
        #expect(reply.status == 202)
        #expect(reply["audienceSize"].int == 6)
        // So small an audience is written with the post (FanOut.atOnce); sending happens in the
        // background, not in the request.
        #expect(reply["state"].string == "sending")
        #expect(reply["counts"]["byState"]["queued"].int == 6)
        #expect(sender.pushes.isEmpty)

        try await harness.deliverDue()
        let id = try #require(reply["id"].string)
        let message = await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)
        #expect(message["state"].string == "completed")
        #expect(message["counts"]["total"].int == 6)
        #expect(message["counts"]["byState"]["sent"].int == 6)
        #expect(message["counts"]["byPlatform"]["ios"]["sent"].int == 5)
        #expect(message["counts"]["byPlatform"]["android"]["sent"].int == 1)
        #expect(sender.pushes.count == 6)
        // Each push carries a lowercase UUID delivery ID, which APNs echoes as apns-id.
        for push in sender.pushes {
            #expect(Identifier.isWellFormed(push.deliveryID))
            if case .apns(let request) = push.request { #expect(request.header("apns-id") == push.deliveryID) }
        }
    }

    @Test func eachDeviceGetsTheVariantForItsLocale() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1, extra: #", "locale": "fr-CA""#)
        try await harness.registerDevice(app, number: 2, extra: #", "locale": "pt_BR""#)
        try await harness.registerDevice(app, number: 3, extra: #", "locale": "de-DE""#)
        try await harness.registerDevice(app, number: 4)
        _ = try await harness.send(app, #"""
            {"message": {"title": "Hello"}, "variants": {"fr": {"title": "Bonjour"}, "pt-BR": {"title": "Olá"}}, "audience": {"all": true}}
            """#)
        try await harness.deliverDue()
        var titles: [String: String] = [:]
        for push in sender.pushes {
            guard case .apns(let request) = push.request else { continue }
            let body = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
            titles[request.deviceToken] = body["aps"]["alert"]["title"].string
        }
        #expect(titles[Harness.token(1)] == "Bonjour")
        #expect(titles[Harness.token(2)] == "Olá")
        #expect(titles[Harness.token(3)] == "Hello")
        #expect(titles[Harness.token(4)] == "Hello")
    }

    @Test func audiencesSelectByDeviceUserAndTags() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let first = try await harness.registerDevice(app, number: 1, extra: #", "externalUserId": "u1", "tags": ["news", "sport"]"#)
        try await harness.registerDevice(app, number: 2, extra: #", "externalUserId": "u1", "tags": ["news"]"#)
        try await harness.registerDevice(app, number: 3, extra: #", "externalUserId": "u2", "tags": ["sport"]"#)
        try await harness.registerDevice(app, number: 4)
        let cases: [(String, Int)] = [
            (#"{"deviceIds": ["\#(first)"]}"#, 1),
            (#"{"externalUserIds": ["u1"]}"#, 2),
            (#"{"tags": {"allOf": ["news", "sport"]}}"#, 1),
            (#"{"tags": {"anyOf": ["news", "sport"]}}"#, 3),
            (#"{"all": true}"#, 4),
        ]
        for (audience, expected) in cases {
            let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "x"}, "audience": \#(audience)}"#)
            #expect(reply["audienceSize"].int == expected, "\(audience)")
            try await harness.deliverDue()
            let id = try #require(reply["id"].string)
            #expect(await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)["counts"]["total"].int == expected, "\(audience)")
        }
    }

    @Test func theSameIdempotencyKeyReturnsTheSameMessageAndSendsOnce() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let body = #"{"message": {"title": "Once"}, "audience": {"all": true}, "idempotencyKey": "order-42"}"#
        let first = await harness.request("POST", "/v1/messages", key: app.serverKey, body: body)
        try await harness.deliverDue()
        harness.advance(3600)
        let again = await harness.request("POST", "/v1/messages", key: app.serverKey, body: body)
        let byHeader = await harness.request("POST", "/v1/messages", key: app.serverKey,
                                             body: #"{"message": {"title": "Once"}, "audience": {"all": true}}"#, headers: ["Idempotency-Key": "order-42"])
        try await harness.deliverDue()
        #expect(again["id"] == first["id"] && byHeader["id"] == first["id"])
        #expect(again["replayed"].bool == true)
        #expect(sender.pushes.count == 1)

        harness.advance(86_400)  // the key lasts 24 hours
        let later = await harness.request("POST", "/v1/messages", key: app.serverKey, body: body)
        #expect(later["id"] != first["id"])
    }

    @Test func aScheduledMessageWaitsForItsTime() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let sendAt = Timestamp.format(harness.time.now.addingTimeInterval(600))
        let id = try await harness.send(app, #"{"message": {"title": "Later"}, "audience": {"all": true}, "sendAt": "\#(sendAt)"}"#)
        try await harness.deliverDue()
        #expect(sender.pushes.isEmpty)
        #expect(await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)["state"].string == "scheduled")
        harness.advance(601)
        try await harness.deliverDue()
        #expect(sender.pushes.count == 1)
    }

    @Test func cancellingStopsWhatIsNotYetSent() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        for number in 1...3 { try await harness.registerDevice(app, number: number) }
        let id = try await harness.send(app, #"{"message": {"title": "Oops"}, "audience": {"all": true}}"#)
        try await harness.fanOut.runOnce()
        let cancelled = await harness.request("POST", "/v1/messages/\(id)/cancel", key: app.serverKey)
        #expect(cancelled.status == 200)
        #expect(cancelled["state"].string == "cancelled")
        #expect(cancelled["counts"]["byState"]["cancelled"].int == 3)
        try await harness.deliverDue()
        #expect(sender.pushes.isEmpty)
        let log = await harness.request("GET", "/v1/messages/\(id)/deliveries?state=cancelled", key: app.serverKey)
        #expect(log["items"].array.count == 3)
        #expect(log["items"][0]["history"].array.last?["event"].string == "cancelled")
    }

    @Test func aFinishedMessageCannotBeCancelled() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let id = try await harness.send(app, #"{"message": {"title": "Done"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        let reply = await harness.request("POST", "/v1/messages/\(id)/cancel", key: app.serverKey)
        #expect(reply.status == 409 && reply.errorCode == "already_finished")
    }
}
