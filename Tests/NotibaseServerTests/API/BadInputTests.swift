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
@testable import NotibaseServerTestSupport

@Suite("Bad input")
struct BadInputTests {
    @Test(arguments: [
        (#"{"platform": "ios", "token": "#, "malformed_json", nil),
        (#"{"platform": "ios", "token": 42}"#, "invalid_field", "token"),
        (#"{"platform": "windows", "token": "abc"}"#, "invalid_field", "platform"),
        (#"{"platform": "ios", "token": "\#(String(repeating: "ab", count: 32))", "tgas": ["a"]}"#, "unknown_field", "tgas"),
        (#"{"token": "\#(String(repeating: "ab", count: 32))"}"#, "missing_field", "platform"),
        (#"{"platform": "ios", "token": "not hex"}"#, "invalid_field", "token"),
        (#"[1, 2]"#, "invalid_field", nil),
    ] as [(String, String, String?)])
    func badDeviceRegistrationIs400WithCodeAndFieldAndChangesNothing(body: String, code: String, field: String?) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/devices", key: app.clientKey, body: body)
        #expect(reply.status == 400)
        #expect(reply.errorCode == code, "\(reply.text)")
        #expect(reply["error"]["field"].string == field)
        #expect(!(reply["error"]["message"].string ?? "").isEmpty)
        #expect(await harness.request("GET", "/v1/devices", key: app.serverKey)["items"].array.isEmpty)
    }

    @Test func invalidMessageListsEveryProblemAndQueuesNothing() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 1)
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"""
            {"message": {"badge": -1}, "variants": {"fr": {"title": "Salut", "collapseId": "\#(String(repeating: "x", count: 80))"}}, "audience": {"all": true}}
            """#)
        #expect(reply.status == 400)
        #expect(reply.errorCode == "invalid_message")
        let fields = reply["error"]["issues"].array.compactMap { $0["field"].string }
        #expect(fields.contains("message.body") && fields.contains("message.badge") && fields.contains("variants.fr.collapseId"), "\(fields)")
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.isEmpty)
    }

    @Test(arguments: [
        #"{"message": {"title": "x"}}"#,
        #"{"message": {"title": "x"}, "audience": {}}"#,
        #"{"message": {"title": "x"}, "audience": {"all": true, "deviceIds": ["a"]}}"#,
        #"{"message": {"title": "x"}, "audience": {"tags": {"allOf": []}}}"#,
        #"{"message": {"title": "x"}, "audience": {"all": false}}"#,
        #"{"message": {"title": "x"}, "audience": {"all": true}, "sendAt": "tomorrow"}"#,
        #"{"message": {"title": "x", "titel": "y"}, "audience": {"all": true}}"#,
    ])
    func badMessageRequestIs400(body: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: body)
        #expect(reply.status == 400, "\(reply.text)")
        #expect(reply.errorCode != nil)
    }

    /// The core's decoders refuse a time that is not RFC 3339; the answer names the field.
    @Test(arguments: [
        ("/v1/messages", #"{"message": {"title": "Hi", "expiresAt": "2026-12-01T12:99:00Z"}, "audience": {"all": true}}"#, "message.expiresAt"),
        ("/v1/messages", #"{"message": {"title": "Hi"}, "variants": {"fr": {"title": "Salut", "expiresAt": "tomorrow"}}, "audience": {"all": true}}"#, "variants.fr.expiresAt"),
        ("/v1/preview", #"{"message": {"title": "Hi", "expiresAt": "2026-12-01 09:30:00Z"}}"#, "message.expiresAt"),
        ("/v1/receipts", #"{"id": "r1", "deliveryId": "d1", "event": "opened", "occurredAt": "2026-13-01T00:00:00Z"}"#, "occurredAt"),
    ])
    func timeThatIsNotRFC3339Is400NamingTheField(path: String, body: String, field: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", path, key: app.serverKey, body: body)
        #expect(reply.status == 400, "\(reply.text)")
        #expect(reply["error"]["field"].string == field, "\(reply.text)")
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.isEmpty)
    }

    @Test func wrongContentTypeIs415() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/devices", key: app.clientKey, body: "platform=ios", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(reply.status == 415)
    }

    @Test func unknownRouteAndMethodAreJSONErrors() async throws {
        let harness = try await Harness()
        let notFound = await harness.request("GET", "/v1/nothing", key: nil)
        #expect(notFound.status == 404 && notFound.errorCode == "not_found")
        let method = await harness.request("PATCH", "/v1/devices", key: nil)
        #expect(method.status == 405 && method.headers["allow"] != nil)
    }

    @Test func overTheRateLimitIs429WithRetryAfter() async throws {
        let harness = try await Harness(rates: [.server: 5])
        let app = try await harness.createApp()
        var statuses: [Int] = []
        var retryAfter: String?
        for _ in 0..<15 {
            let reply = await harness.request("GET", "/v1/devices", key: app.serverKey)
            statuses.append(reply.status)
            if reply.status == 429 { retryAfter = reply.headers["retry-after"] }
        }
        #expect(statuses.prefix(10).allSatisfy { $0 == 200 })  // a burst of twice the rate
        #expect(statuses.contains(429))
        #expect(Int(retryAfter ?? "") ?? 0 >= 1)
    }

    @Test func badPagingParametersAre400() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        #expect(await harness.request("GET", "/v1/devices?limit=0", key: app.serverKey)["error"]["field"].string == "limit")
        #expect(await harness.request("GET", "/v1/devices?cursor=garbage", key: app.serverKey)["error"]["field"].string == "cursor")
        #expect(await harness.request("GET", "/v1/devices?platform=symbian", key: app.serverKey)["error"]["field"].string == "platform")
    }
}

@Suite("Timestamps")
struct TimestampTests {
    @Test(arguments: [
        (0, "1970-01-01T00:00:00Z"), (1_800_000_000_000, "2027-01-15T08:00:00Z"), (1_800_000_000_123, "2027-01-15T08:00:00.123Z"),
        (1_709_251_199_999, "2024-02-29T23:59:59.999Z"), (951_782_400_000, "2000-02-29T00:00:00Z"), (-1, "1969-12-31T23:59:59.999Z"),
    ])
    func timesAreRFC3339InUTCWithExactMilliseconds(milliseconds: Int, expected: String) {
        #expect(milliseconds.timestamp == expected)
        // Read back when from 2000 on (``Timestamp/accepted``).
        #expect((Timestamp.parse(expected) != nil) == (milliseconds >= 946_684_800_000))
    }

    @Test(arguments: [
        ("2026-12-01T09:30:00Z", true), ("2026-12-01T09:30:00.250+02:00", true), ("2024-02-29T00:00:00Z", true),
        ("2023-02-29T00:00:00Z", false), ("2024-01-01T12:99:00Z", false), ("2024-13-01T00:00:00Z", false),
        ("2024-01-01 00:00:00Z", false), ("2024-01-01T00:00:00", false), ("tomorrow", false), ("2024-01-01T00:00:00+24:00", false),
        // From 2000 to 2100 only: outside, years were written back wrong (000/-12-31, 10000 as 0000).
        ("2000-01-01T00:00:00Z", true), ("2100-01-01T00:00:00Z", true), ("1999-12-31T23:59:59.999Z", false), ("2100-01-01T00:00:00.001Z", false),
        ("2000-01-01T00:00:00+00:01", false), ("0000-01-01T00:00:00+23:59", false), ("9999-12-31T23:59:59-23:59", false),
    ])
    func strictRFC3339(text: String, valid: Bool) {
        #expect(Timestamp.isValid(text) == valid)
    }
}

@Suite("Device JSON")
struct DeviceJSONTests {
    @Test func handWrittenJSONIsWhatTheEncoderWrites() throws {
        var device = DeviceRecord(
            seq: 1, id: "01a22c12-1c60-7dcb-a117-681db7035072", platform: .ios, token: String(repeating: "ab", count: 32),
            externalUserID: "user \"42\"\n\u{8}\u{c}\t\r\u{1}\u{1f}\\/", tags: ["news", "ünï", "a\"b\u{7}"], locale: "fr-FR", timeZone: "Europe/Paris", appVersion: "1.2",
            sdkVersion: "0.1", active: false, deactivatedReason: "Unregistered", deactivatedAt: 1_800_000_000_500,
            createdAt: 1_800_000_000_000, updatedAt: 1_800_000_001_000)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: DevicesAPI.json(device), as: UTF8.self) == String(decoding: try encoder.encode(DevicesAPI.DeviceBody(device)), as: UTF8.self))
        device = DeviceRecord(seq: 2, id: "x", platform: .android, token: "t", tags: [], active: true, createdAt: 0, updatedAt: 0)
        #expect(String(decoding: DevicesAPI.json(device), as: UTF8.self) == String(decoding: try encoder.encode(DevicesAPI.DeviceBody(device)), as: UTF8.self))
    }
}
