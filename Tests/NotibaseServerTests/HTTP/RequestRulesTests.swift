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

/// The request rules the API applies to every request body and to /metrics, in process.
@Suite("Request rules")
struct RequestRulesTests {
    @Test func aMessageWithTwoAudiencesIsRefusedAndNothingIsStoredOrSent() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        let one = try await harness.registerDevice(app, number: 1)
        try await harness.registerDevice(app, number: 2)
        // A proxy or a log that reads the first audience sees one device; the decoder kept another.
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"""
            {"message": {"title": "Hi"}, "audience": {"deviceIds": ["\#(one)"]}, "audience": {"all": true}}
            """#)
        #expect(reply.status == 400)
        #expect(reply.errorCode == "duplicate_field", "\(reply.text)")
        #expect(reply["error"]["field"].string == "audience")
        try await harness.deliverDue()
        #expect(sender.pushes.isEmpty)
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.isEmpty)
    }

    @Test(arguments: [
        (#"{"message": {"title": "a", "title": "b"}, "audience": {"all": true}}"#, "message.title"),
        (#"{"message": {"title": "a"}, "audi\u0065nce": {"all": true}, "audience": {"all": true}}"#, "audience"),
        (#"{"message": {"title": "a", "buttons": [{"id": "x", "text": "X"}, {"id": "y", "text": "Y", "id": "z"}]}, "audience": {"all": true}}"#, "message.buttons[1].id"),
    ])
    func aRepeatedFieldAnywhereIsRefused(_ body: String, _ field: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: body)
        #expect(reply.status == 400)
        #expect(reply.errorCode == "duplicate_field", "\(reply.text)")
        #expect(reply["error"]["field"].string == field)
    }

    @Test func aRegistrationWithTwoTokensIsRefused() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/devices", key: app.clientKey, body: #"""
            {"platform": "ios", "token": "\#(Harness.token(1))", "token": "\#(Harness.token(2))"}
            """#)
        #expect(reply.status == 400)
        #expect(reply.errorCode == "duplicate_field", "\(reply.text)")
        #expect(reply["error"]["field"].string == "token")
        #expect(await harness.request("GET", "/v1/devices", key: app.serverKey)["items"].array.isEmpty)
    }

    @Test(arguments: [
        (#"{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}"#, nil),
        (#"{"a": "\"a\"", "\"a\"": 1}"#, nil),
        (#"{"a": 1, "b": {"x": 1, "y": 2, "x": 3}}"#, "b.x"),
        (#"[{"a": 1}, {"a": 1, "a": 2}]"#, "[1].a"),
        (#"{"é": 1, "e\u0301": 2}"#, "é"),
        (#"{"\ud83d\ude00": 1, "😀": 2}"#, "😀"),
        (#"{"a": 1, "a""#, "a"),
        (#"{"a": "#, nil),
    ] as [(String, String?)])
    func theScannerFindsRepeatedKeysPerObject(_ body: String, _ path: String?) {
        #expect(DuplicateKeyScanner.firstDuplicate(in: Array(body.utf8)) == path)
    }

    @Test func manyKeysAreCheckedWithoutQuadraticTime() {
        let keys = (0..<20_000).map { #""k\#($0)": \#($0)"# }
        let distinct = Array(("{" + keys.joined(separator: ",") + "}").utf8)
        let repeated = Array(("{" + keys.joined(separator: ",") + #", "k123": 0}"#).utf8)
        let started = ContinuousClock.now
        #expect(DuplicateKeyScanner.firstDuplicate(in: distinct) == nil)
        #expect(DuplicateKeyScanner.firstDuplicate(in: repeated) == "k123")
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test(arguments: ["application/jsonp", "application/json-patch+json", "application/json5", "text/json", "application/jsonx; charset=utf-8", ""])
    func aContentTypeThatOnlyStartsLikeJSONIs415(_ contentType: String) async throws {
        let harness = try await Harness()
        let reply = await harness.request("POST", "/v1/apps", key: Harness.adminKey, body: #"{"name": "Shop"}"#, headers: ["Content-Type": contentType])
        #expect(reply.status == 415, "\(reply.text)")
        #expect(reply.errorCode == "unsupported_media_type")
        #expect(await harness.request("GET", "/v1/apps", key: Harness.adminKey)["items"].array.isEmpty)
    }

    @Test(arguments: ["application/json", "Application/JSON", "application/json; charset=utf-8", "application/json;charset=UTF-8", "application/json ; charset=utf-8", " application/json "])
    func jsonWithOrWithoutParametersIsAccepted(_ contentType: String) async throws {
        let harness = try await Harness()
        let reply = await harness.request("POST", "/v1/apps", key: Harness.adminKey, body: #"{"name": "Shop"}"#, headers: ["Content-Type": contentType])
        #expect(reply.status == 201, "\(reply.text)")
    }

    @Test func unknownMethodsAndPathsAddNoMetricsLabels() async throws {
        let harness = try await Harness()
        for number in 0..<50 {
            _ = await harness.request("BREW\(number)", "/healthz", key: nil)
            _ = await harness.request("GET", "/no-such-path-\(number)", key: nil)
            _ = await harness.request("PROPFIND\(number)", "/v1/apps/\(number)", key: Harness.adminKey)
        }
        _ = await harness.request("DELETE", "/healthz", key: nil)
        let text = harness.metrics.render()
        let requestLines = text.split(separator: "\n").filter { $0.hasPrefix("notibase_http_requests_total{") }
        #expect(!text.contains("BREW") && !text.contains("PROPFIND") && !text.contains("no-such-path"), "\(requestLines)")
        #expect(text.contains(#"notibase_http_requests_total{route="unmatched",method="other",status="405"} 100"#), "\(requestLines)")
        #expect(text.contains(#"method="DELETE""#))
        #expect(requestLines.count <= 5, "\(requestLines)")
    }
}
