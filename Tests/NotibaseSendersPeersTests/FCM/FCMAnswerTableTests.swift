import Foundation
import Testing
@testable import NotibaseSenders

/// One peer for the whole suite: each case answers for a registration token of its own.
private enum SharedPeer {
    static let rows = FCMAnswerTable.rows + [FCMAnswerTable.invalidRegistrationToken]
    static let retryAfterCases = [("UNAVAILABLE", "120", 120), ("INTERNAL", "7", 7), ("QUOTA_EXCEEDED", "30", 60), ("QUOTA_EXCEEDED", "300", 300)]

    static func token(for row: FCMAnswerTable.Row) -> String { registrationToken(100 + rows.firstIndex(of: row)!) }
    static func retryAfterToken(code: String, header: String) -> String { registrationToken(200 + retryAfterCases.firstIndex { $0.0 == code && $0.1 == header }!) }
    static let otherFieldToken = registrationToken(300)

    static let fixture = Task<FCMFixture, any Error> {
        var tokens: [String: Any] = [:]
        for row in rows {
            var answer: [String: Any] = ["error": row.code.rawValue]
            if row == FCMAnswerTable.invalidRegistrationToken { answer["field"] = "message.token" }
            tokens[token(for: row)] = [answer]
        }
        for (code, header, _) in retryAfterCases {
            tokens[retryAfterToken(code: code, header: header)] = [["error": code, "retry_after": header]]
        }
        tokens[otherFieldToken] = [["error": "INVALID_ARGUMENT", "field": "message.android.ttl"]]
        return try await FCMFixture.start(script: ["tokens": tokens])
    }
}

extension PeerTests {
    @Suite("FCM answers: every documented error code, through a real HTTP/2 exchange")
    struct FCMAnswerTableTests {
        @Test("each row of the table becomes the outcome the server acts on", arguments: SharedPeer.rows)
        func row(_ row: FCMAnswerTable.Row) async throws {
            let token = SharedPeer.token(for: row)
            let fixture = try await SharedPeer.fixture.value
            let sender = fixture.sender()
            let outcome = try #require(await sender.send([fixture.push(token)]).first)
            await sender.shutdown()
            #expect(outcome.disposition == row.action.disposition)
            #expect(outcome.providerReason == row.code.rawValue)
            #expect(outcome.status == row.status)
            #expect(outcome.explanation == row.explanation)
            #expect(outcome.explanation?.contains(token) == false)
            #expect(try fixture.peer.messageRequests(for: token).count == 1, "FCM errors are never resent by the sender")
            if row.action == .retryAfterQuota { #expect(outcome.retryAfter == .seconds(60), "at least a minute after QUOTA_EXCEEDED") }
        }

        @Test("INVALID_ARGUMENT about another field gives up without deactivating the device")
        func invalidArgumentOtherField() async throws {
            let fixture = try await SharedPeer.fixture.value
            let sender = fixture.sender()
            let outcome = try #require(await sender.send([fixture.push(SharedPeer.otherFieldToken)]).first)
            await sender.shutdown()
            #expect(outcome.disposition == .failed)
        }

        @Test("Retry-After is honoured; the quota floor is a minute", arguments: SharedPeer.retryAfterCases)
        func retryAfter(code: String, header: String, seconds: Int) async throws {
            let fixture = try await SharedPeer.fixture.value
            let sender = fixture.sender()
            let outcome = try #require(await sender.send([fixture.push(SharedPeer.retryAfterToken(code: code, header: header))]).first)
            await sender.shutdown()
            #expect(outcome.disposition == .retry)
            #expect(outcome.retryAfter == .seconds(seconds))
        }

        @Test("Retry-After as seconds or an HTTP date", arguments: [
            ("120", 120), ("0", 0), ("Thu, 01 Jan 1970 00:02:00 GMT", 60), ("Thu, 01 Jan 1970 00:00:30 GMT", 0),
        ])
        func retryAfterParsing(value: String, seconds: Int) {
            #expect(RetryAfter.parse(value, now: Date(timeIntervalSince1970: 60)) == .seconds(seconds))
        }

        @Test("unreadable Retry-After values are ignored", arguments: ["", "soon", "-5", "Mon, 99 Foo 2020 00:00:00 GMT"])
        func retryAfterGarbage(value: String) {
            #expect(RetryAfter.parse(value, now: Date()) == nil)
        }

        @Test("an unknown error code keeps its text and is treated by its status",
              arguments: [(400, SendOutcome.Disposition.failed), (403, .credentialsRejected), (404, .credentialsRejected), (429, .retry), (503, .retry)])
        func unknownCode(status: Int, disposition: SendOutcome.Disposition) {
            let row = FCMAnswerTable.row(status: status, code: FCMErrorCode("SOMETHING_NEW"), aboutRegistrationToken: false)
            #expect(row.action.disposition == disposition)
            #expect(row.code.rawValue == "SOMETHING_NEW")
        }
    }
}

extension FCMAnswerTable.Row: CustomTestStringConvertible {
    public var testDescription: String { "\(status) \(code.rawValue) → \(action.rawValue)" }
}
