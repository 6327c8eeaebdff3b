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

/// `POST /v1/devices` is answered without a task once the key is known (its quick handler on the
/// HTTP polling thread, the write waited for by callback). It must answer exactly as the route's
/// handler in a task does.
@Suite("Quick registration: the same answers as the task path")
struct QuickRegistrationTests {
    /// What two servers must agree on: the status, the headers but the request ID, and the body with
    /// identifiers (random) replaced.
    static func normalized(_ reply: Reply) -> String {
        let headers = reply.headers.filter { $0.key != "x-request-id" }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let body = reply.text.replacingOccurrences(of: #"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"#, with: "<id>", options: .regularExpression)
        return "\(reply.status)\n\(headers.joined(separator: "\n"))\n\(body)"
    }

    enum Key: CaseIterable { case client, server, admin, none, unknown, malformed }

    static func authorization(_ key: Key, _ app: TestApp) -> String? {
        switch key {
        case .client: app.clientKey
        case .server: app.serverKey
        case .admin: Harness.adminKey
        case .none: nil
        case .unknown: "nb_client_" + String(repeating: "A", count: 43)
        case .malformed: "two words"
        }
    }

    static let token = Harness.token(1)

    /// Requests in order, so re-registrations, deactivations and cached keys all happen.
    static let requests: [(Key, String, [String: String])] = {
        let bodies = [
            #"{"platform":"ios","token":"\#(token)","locale":"en-US","tags":["bench"],"appVersion":"1.0"}"#,
            #"{"platform":"ios","token":"\#(token.uppercased())","externalUserId":"u1","timeZone":"Europe\/Paris"}"#,
            #"{"platform":"ios","token":"\#(Harness.token(2))","previousToken":"\#(token)","tags":["b","a","b"],"sdkVersion":"1.0"}"#,
            #"{"platform":"android","token":"fcm-0123456789abcdef","externalUserId":null}"#,
            #"{"platform":"ios","token":"abc"}"#,
            #"{"platform":"ios","token":"\#(token)","locale":"1x"}"#,
            #"{"platform":"ios","token":"\#(token)","tags":[""]}"#,
            #"{"platform":"ios","token":"\#(token)","tgas":["a"]}"#,
            #"{"pl\u0061tform":"ios","token":"\#(Harness.token(3))"}"#,
            #"{"platform":"ios","token":42}"#,
            #"{"platform":"ios""#,
            "",
        ]
        var requests: [(Key, String, [String: String])] = []
        for key in Key.allCases {
            for body in bodies {
                requests.append((key, body, [:]))
            }
            requests.append((key, bodies[0], ["Content-Type": "text/plain"]))
        }
        // Again with every key known.
        for key in [Key.client, .server] {
            for body in bodies { requests.append((key, body, [:])) }
        }
        return requests
    }()

    @Test func everyAnswerIsTheTaskPathsAnswer() async throws {
        let quick = try await Harness()
        let reference = try await Harness(quickHandlers: false)
        let quickApp = try await quick.createApp()
        let referenceApp = try await reference.createApp()
        for (index, (key, body, headers)) in Self.requests.enumerated() {
            let answer = await quick.request("POST", "/v1/devices", key: Self.authorization(key, quickApp), body: body, headers: headers)
            let expected = await reference.request("POST", "/v1/devices", key: Self.authorization(key, referenceApp), body: body, headers: headers)
            #expect(Self.normalized(answer) == Self.normalized(expected), "request \(index) (\(key)): \(body)")
        }
        let devices = await quick.request("GET", "/v1/devices", key: quickApp.serverKey)
        let referenceDevices = await reference.request("GET", "/v1/devices", key: referenceApp.serverKey)
        #expect(devices["items"].array.count == 4)
        #expect(Self.normalized(devices) == Self.normalized(referenceDevices))
    }

    @Test func overTheRateLimitTheSameRequestsAreRefused() async throws {
        var statuses: [[Int]] = []
        for quickHandlers in [true, false] {
            let harness = try await Harness(rates: [.client: 5], quickHandlers: quickHandlers)
            let app = try await harness.createApp()
            var run: [Int] = []
            for number in 1...15 {
                let body = number % 3 == 0 ? #"{"platform":"ios","token":"bad"}"# : #"{"platform":"ios","token":"\#(Harness.token(number))"}"#
                run.append(await harness.request("POST", "/v1/devices", key: app.clientKey, body: body).status)
            }
            statuses.append(run)
        }
        #expect(statuses[0] == statuses[1])
        #expect(statuses[0].contains(429) && statuses[0].contains(201) && statuses[0].contains(400))
    }

    @Test func theQuickHandlerTakesJSONBodiesWithAKnownKeyAndNothingElse() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let context = harness.responder.context
        func quick(_ key: String, _ body: String, _ contentType: String = "application/json") throws -> Router.QuickAnswer? {
            let request = HTTPRequest(method: "POST", path: "/v1/devices", headers: ["Authorization": "Bearer " + key, "Content-Type": contentType], body: Array(body.utf8))
            return try DevicesAPI.quickRegistration(request, context)
        }
        let plain = #"{"platform":"ios","token":"\#(Self.token)"}"#
        // The key has not been looked up yet: the task looks it up.
        #expect(try quick(app.clientKey, plain) == nil)
        try await harness.registerDevice(app, number: 9)
        #expect(try quick(app.clientKey, plain) != nil)
        // One body reader: an escaped field name is read here as the task reads it.
        #expect(try quick(app.clientKey, #"{"pl\u0061tform":"ios","token":"\#(Self.token)"}"#) != nil)
        #expect(try quick(app.clientKey, plain, "text/plain") == nil)
        #expect(try quick(app.clientKey, #"{"platform":"ios","token":"\#(Self.token)","externalUserId":"\#(String(repeating: "u", count: DevicesAPI.quickBodyLimit))"}"#) == nil)
        // What it finds wrong it answers itself.
        #expect(throws: APIError.self) { try quick(app.clientKey, #"{"platform":"ios","token":"abc"}"#) }
        #expect(throws: Refusal.self) { try quick(Harness.adminKey, plain) }
    }
}
