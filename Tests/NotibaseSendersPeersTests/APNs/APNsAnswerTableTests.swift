import Foundation
import Testing
@testable import NotibaseSenders

/// One peer for the whole suite: each case answers for a device token of its own.
private enum SharedPeer {
    static func token(for row: APNsAnswerTable.Row) -> String {
        deviceToken(1000 + APNsAnswerTable.rows.firstIndex(of: row)!)
    }

    static func unknownToken(status: Int) -> String { deviceToken(2000 + status) }

    static let fixture = Task<APNsFixture, any Error> {
        var tokens: [String: Any] = [:]
        for row in APNsAnswerTable.rows {
            var answer: [String: Any] = ["status": row.status, "reason": row.reason.rawValue]
            if row.status == 410 { answer["timestamp"] = 1_700_000_000_000 }
            tokens[token(for: row)] = [answer]
        }
        for status in [400, 403, 410, 429, 500, 502, 418, 302] {
            tokens[unknownToken(status: status)] = [["status": status, "reason": "SomethingNew"]]
        }
        return try await APNsFixture.start(script: ["tokens": tokens])
    }
}

extension PeerTests {
    @Suite("APNs answers: every documented reason, through a real HTTP/2 exchange")
    struct APNsAnswerTableTests {
        /// Each row, answered by the peer for one device token; the sender's outcome must follow the
        /// table, keep APNs's reason and give our explanation.
        @Test("each row of the table becomes the outcome the server acts on", arguments: APNsAnswerTable.rows)
        func row(_ row: APNsAnswerTable.Row) async throws {
            let token = SharedPeer.token(for: row)
            let fixture = try await SharedPeer.fixture.value
            let sender = fixture.sender()
            let push = fixture.push(token)
            let outcome = try #require(await sender.send([push]).first)
            await sender.shutdown()

            #expect(outcome.disposition == row.action.disposition)
            #expect(outcome.status == row.status)
            #expect(outcome.providerReason == row.reason.rawValue)
            #expect(outcome.providerID == push.deliveryID)
            #expect(outcome.explanation?.hasPrefix(row.explanation) == true)
            #expect(outcome.explanation?.contains(token) == false, "explanations never carry device tokens")
            #expect((outcome.tokenInvalidSince != nil) == (row.status == 410))
            let requests = try fixture.peer.requests(for: token)
            let expectedAttempts = (row.action == .renewCredentialOnce || row.action == .resendOnce) ? 2 : 1
            #expect(requests.count == expectedAttempts, "token problems are retried exactly once; nothing else is resent by the sender")
            let providerTokens = Set(requests.compactMap { ($0["headers"] as? [String: Any])?["authorization"] as? String })
            if row.action == .renewCredentialOnce {
                #expect(providerTokens.count == 2, "a refused token is replaced")
            }
            if row.action == .resendOnce {
                #expect(providerTokens.count == 1, "too many token updates: resent without a new token")
            }
        }

        @Test("the table covers every reason APNs documents, once")
        func coverage() {
            let documented: Set<String> = [
                "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
                "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
                "MissingTopic", "PayloadEmpty", "TopicDisallowed", "BadCertificate", "BadCertificateEnvironment",
                "ExpiredProviderToken", "Forbidden", "InvalidProviderToken", "MissingProviderToken",
                "UnrelatedKeyIdInToken", "BadEnvironmentKeyInToken", "BadPath", "MethodNotAllowed", "ExpiredToken",
                "Unregistered", "PayloadTooLarge", "TooManyProviderTokenUpdates", "TooManyRequests",
                "InternalServerError", "ServiceUnavailable", "Shutdown",
            ]
            let reasons = APNsAnswerTable.rows.map(\.reason.rawValue)
            #expect(Set(reasons) == documented)
            #expect(reasons.count == documented.count)
        }

        @Test("BadDeviceToken's explanation points at the other environment")
        func badDeviceTokenExplanation() {
            let row = APNsAnswerTable.row(status: 400, reason: .badDeviceToken)
            #expect(row.action == .deactivateDevice)
            #expect(row.explanation.contains("sandbox"))
        }

        @Test("an unknown reason keeps its text and is treated by its status, never deactivating on a guess",
              arguments: [(400, SendOutcome.Disposition.failed), (403, .credentialsRejected), (410, .deactivateDevice),
                          (429, .retry), (500, .retry), (502, .retry), (418, .failed), (302, .retry)])
        func unknownReason(status: Int, disposition: SendOutcome.Disposition) async throws {
            let fixture = try await SharedPeer.fixture.value
            let sender = fixture.sender()
            let outcome = try #require(await sender.send([fixture.push(SharedPeer.unknownToken(status: status))]).first)
            await sender.shutdown()
            #expect(outcome.disposition == disposition)
            #expect(outcome.providerReason == "SomethingNew")
            #expect(outcome.status == status)
        }
    }
}

extension APNsAnswerTable.Row: CustomTestStringConvertible {
    public var testDescription: String { "\(status) \(reason.rawValue)" }
}
