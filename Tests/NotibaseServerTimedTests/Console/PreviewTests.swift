import Foundation
import NotibaseCore
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

/// `POST /v1/preview`: the exact payloads the core's renderers make, against their limits, what an
/// Android phone draws, and the doctor's verdict on what an iPhone draws.
@Suite("Preview endpoint")
struct PreviewTests {
    static let twoButtons = #"{"message": {"title": "Your order shipped", "body": "Parcel 4242", "image": "https://cdn.example/parcel.jpg", "buttons": [{"id": "track", "text": "Track"}, {"id": "cancel", "text": "Cancel", "options": ["destructive"]}]}, "ttl": 3600, "collapseId": "order-4242"}"#

    @Test func answersTheExactPayloadsAndWhatAndroidDraws() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/preview", key: app.serverKey, body: Self.twoButtons)
        #expect(reply.status == 200, "\(reply.text)")
        let apns = reply["apns"]
        #expect(apns["limit"].int == 4096)
        #expect(apns["payload"]["aps"]["category"].string == CategoryIdentifier.derive(from: [Button(id: "track", text: "Track"), Button(id: "cancel", text: "Cancel", options: [.destructive])]))
        #expect(apns["payload"]["aps"]["mutable-content"].int == 1)
        #expect(apns["payload"]["nb_buttons"].array.count == 2)
        #expect(apns["payload"]["nb_image"].string == "https://cdn.example/parcel.jpg")
        #expect(apns["headers"]["apns-collapse-id"].string == "order-4242")
        #expect(apns["headers"]["apns-expiration"] != .null)
        // The size is the payload's, receipt IDs included (they are in every real delivery).
        #expect(apns["payload"]["nb_sig"].string != nil)
        let apnsBytes = try #require(apns["bytes"].int)
        #expect(apnsBytes > 200 && apnsBytes < 4096)
        #expect(apns["shortened"].array.isEmpty)
        #expect(reply["fcm"]["limit"].int == 4096)
        #expect(reply["fcm"]["payload"]["message"]["data"]["nb_title"].string == "Your order shipped")
        #expect(reply["android"]["buttons"].array.compactMap { $0["text"].string } == ["Track", "Cancel"])
        #expect(reply["android"]["image"].string == "https://cdn.example/parcel.jpg")
        #expect(reply["ios"] == .null)  // this harness has no doctor
    }

    @Test func saysWhatWasShortenedToFit() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let body = String(repeating: "é", count: 3000)
        let reply = await harness.request("POST", "/v1/preview", key: app.serverKey, body: #"{"message": {"title": "Long", "body": "\#(body)"}}"#)
        #expect(reply.status == 200)
        for provider in ["apns", "fcm"] {
            #expect(reply[provider]["shortened"].array == ["body"], "\(provider)")
            #expect((reply[provider]["bytes"].int ?? 9999) <= 4096, "\(provider)")
        }
        #expect(reply["apns"]["payload"]["aps"]["alert"]["body"].string?.hasSuffix("…") == true)
    }

    #if canImport(NotibaseSimulator)
    @Test func theDoctorSaysWhatAnIPhoneDraws() async throws {
        let harness = try await Harness(doctor: TestDoctor())
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/preview", key: app.serverKey, body: Self.twoButtons)
        let ios = reply["ios"]
        #expect(ios["title"].string == "Your order shipped")
        #expect(ios["buttons"].array.compactMap { $0["title"].string } == ["Track", "Cancel"])
        #expect(ios["buttons"].array.last?["options"].array.contains("destructive") == true)
        #expect(ios["extensionRan"].bool == true)
        #expect(ios["problems"].array.isEmpty, "\(ios["problems"])")
    }

    @Test func theDoctorSaysWhyThereAreNoButtons() async throws {
        let harness = try await Harness(doctor: TestDoctor())
        let app = try await harness.createApp()
        // A category the app never registers: iOS draws no buttons, and says nothing.
        let reply = await harness.request("POST", "/v1/preview", key: app.serverKey, body: #"{"message": {"title": "Invite", "category": "INVITATION"}}"#)
        #expect(reply.status == 200)
        #expect(reply["ios"]["buttons"].array.isEmpty)
        let problems = reply["ios"]["problems"].array.compactMap(\.string)
        #expect(problems.contains { $0.contains("\"INVITATION\"") && $0.contains("iOS draws no buttons") }, "\(problems)")
    }
    #endif

    @Test func anInvalidMessageIsA400ListingEveryIssueAsSendingWouldBe() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/preview", key: app.serverKey, body: #"{"message": {"title": "x", "buttons": [{"id": "a", "text": "A"}, {"id": "a", "text": "B"}]}}"#)
        #expect(reply.status == 400)
        #expect(reply.errorCode == "invalid_message")
        #expect(reply.json["error"]["field"].string?.hasPrefix("message.buttons") == true)
        #expect(!reply.json["error"]["issues"].array.isEmpty)
        let sent = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"audience": {"all": true}, "message": {"title": "x", "buttons": [{"id": "a", "text": "A"}, {"id": "a", "text": "B"}]}}"#)
        #expect(sent.json["error"]["issues"] == reply.json["error"]["issues"])
    }

    @Test(arguments: [
        (#"{}"#, "message"), (#"{"message": {"title": "x"}, "audience": {"all": true}}"#, "audience"),
        (#"{"message": {"title": "x"}, "ttl": "soon"}"#, "ttl"), (#"{"message": {"title": 3}}"#, "message.title"),
    ])
    func badInputNamesTheField(body: String, field: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/preview", key: app.serverKey, body: body)
        #expect(reply.status == 400, "\(reply.text)")
        #expect(reply.json["error"]["field"].string == field, "\(reply.text)")
    }

    @Test func onlyTheServerKeyPreviews() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        #expect(await harness.request("POST", "/v1/preview", key: app.clientKey, body: Self.twoButtons).status == 403)
        #expect(await harness.request("POST", "/v1/preview", key: nil, body: Self.twoButtons).status == 401)
    }
}
