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

/// The send's answer, the stored content and the lists bound to statements are written by hand
/// on the everyday path; a client reads them as `JSONEncoder` wrote them before, byte for byte.
@Suite("Message answers written by hand")
struct MessageAnswerTests {
    /// Strings a writer gets wrong first: quotes, backslashes, slashes, control characters, DEL,
    /// non-ASCII, an emoji, the line separators JavaScript minds.
    static let awkward = ["", "plain", "a \"quoted\" \\ back/slash", "tab\tnew\nline\r\u{0C}\u{08}", "\u{01}\u{1F}\u{7F}",
                          "é ü 日本語", "🎉 party", "\u{2028}\u{2029}", "</script>"]

    private static func message(_ json: String) throws -> Message {
        try JSONDecoder().decode(Message.self, from: Data(json.utf8))
    }

    private static func bodies() throws -> [MessagesAPI.MessageBody] {
        let plain = try message(#"{"title":"Code","body":"Your code is 123456"}"#)
        let rich = try message(#"""
            {"title":"Sale \"now\"","subtitle":"é/ü","body":"Line\nbreak 🎉","image":"https://example.com/a.png",
             "buttons":[{"id":"track","text":"Track"},{"id":"reply","text":"Reply","input":{"button":"Send","placeholder":"Say…"}}],
             "data":{"orderId":42,"nested":{"a":[1,2.5,true,null,"x"]},"":"empty key"},"ttl":3600,"priority":"normal","collapseId":"c/1"}
            """#)
        var bodies: [MessagesAPI.MessageBody] = []
        let audiences: [Audience] = [.devices(["0197-a", "0197-b"]), .externalUsers(awkward), .allTags(["vip", "fr"]), .anyTag(["x"]), .everyone]
        for (index, audience) in audiences.enumerated() {
            var body = MessagesAPI.MessageBody(
                id: "0197e2c0-aaaa-7bbb-8ccc-000000000001", state: index % 2 == 0 ? "sending" : "completed", audience: audience,
                audienceSize: index * 1_000_003, message: index % 2 == 0 ? plain : rich, variants: nil,
                sendAt: "2026-12-06T08:00:00.000Z", createdAt: "2026-12-06T07:59:59.123Z", finishedAt: nil)
            if index == 1 {
                body.variants = ["fr-FR": plain, "En": rich, "pt_BR": rich, "de": plain]
                body.finishedAt = "2026-12-06T08:00:01.000Z"
                body.failureReason = awkward[2]
                body.replayed = true
            }
            if index == 2 {
                body.localTime = WallTime(hour: 9, minute: 5)
                body.localDate = CivilDate("2026-12-24")
                body.fallbackTimeZone = "Europe/Paris"
                body.ratePerMinute = 1_000
                body.quietHours = QuietHours(start: WallTime(hour: 22, minute: 0), end: WallTime(hour: 7, minute: 30))
                body.timeZoneFallbacks = 0
            }
            if index != 4 {
                var counts = MessagesAPI.Counts()
                counts.total = 3 + index
                counts.byState = ["sent": 2, "failed": 1, "retrying": index]
                counts.byPlatform = ["ios": ["sent": 2], "android": ["failed": 1, "retrying": index]]
                if index == 2 {
                    counts.waiting = 7
                    counts.lastDueAt = "2026-12-24T08:00:00.000Z"
                    counts.waitingForCredentials = [CredentialWait(platform: "ios", reason: "BadCertificate", count: 1, explanation: awkward[3])]
                }
                body.counts = counts
            }
            body.warnings = index == 3 ? [] : [
                MessageService.Warning(code: "audience_empty", message: "no device", platform: nil, unmatched: awkward),
                MessageService.Warning(code: "credentials_missing", message: "upload them", platform: "android", unmatched: nil),
            ]
            bodies.append(body)
        }
        return bodies
    }

    @Test("every message answer is the encoder's bytes")
    func answersAreTheEncodersBytes() throws {
        for body in try Self.bodies() {
            let expected = try JSON.encoder().encode(body)
            #expect(String(decoding: body.json(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test("the send's encoded content is its stored form, and the answer splices it unchanged")
    func encodedContentIsTheStoredForm() throws {
        for var body in try Self.bodies() {
            let content = MessageContent(message: body.message, variants: body.variants)
            let encoded = try MessagesAPI.checkSize(content)
            #expect(encoded.stored == (try StoredJSON.encode(content)))
            let expected = try JSON.encoder().encode(body)
            body.encodedContent = encoded
            #expect(String(decoding: body.json(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test("lists and strings bound to statements are the encoder's text")
    func listsAreTheEncodersText() throws {
        let encoder = JSON.encoder()
        for strings in [[], Self.awkward, ["one"]] {
            #expect(JSON.text(strings) == String(decoding: try encoder.encode(strings), as: UTF8.self))
        }
        for numbers in [[], [0], [1, -2, Int.max, Int.min]] {
            #expect(JSON.text(numbers) == String(decoding: try encoder.encode(numbers), as: UTF8.self))
        }
        for string in Self.awkward {
            #expect(JSON.text(string) == String(decoding: try encoder.encode(string), as: UTF8.self))
        }
    }
}
