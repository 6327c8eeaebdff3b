import Foundation
import Testing
@testable import NotibaseCore

@Suite("Message JSON")
struct MessageCodingTests {
    func decode(_ json: String) throws -> Message {
        try JSONDecoder().decode(Message.self, from: Data(json.utf8))
    }

    func problem(_ json: String) -> DecodingProblem? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            return DecodingProblem(error)
        }
    }

    @Test func decodesEveryField() throws {
        let message = try decode("""
            {"title":"T","subtitle":"S","body":"B","buttons":[{"id":"a","text":"A"}],"image":"https://x.test/i.png",
             "url":"app://x","sound":"default","badge":2,"threadId":"t","interruptionLevel":"passive","relevanceScore":0.5,
             "collapseId":"c","ttl":60,"priority":"normal","data":{"k":[1,"v"]},"category":"CAT","targetContentId":"w"}
            """)
        #expect(message == Message(
            title: "T", subtitle: "S", body: "B", buttons: [Button(id: "a", text: "A")], imageURL: "https://x.test/i.png",
            url: "app://x", sound: "default", badge: 2, threadID: "t", interruptionLevel: .passive, relevanceScore: 0.5,
            collapseID: "c", ttl: 60, priority: .normal, data: ["k": [1, "v"]], category: "CAT", targetContentID: "w"))
    }

    @Test func roundTrips() throws {
        let message = Message(
            title: "T", body: "B", buttons: [Button(id: "a", text: "A", options: [], input: .init(button: "Go"))],
            expiresAt: Date(timeIntervalSince1970: 1_796_083_200.5), data: ["n": nil, "d": 1.5])
        let encoded = try JSONEncoder().encode(message)
        #expect(try JSONDecoder().decode(Message.self, from: encoded) == message)
        #expect(String(decoding: encoded, as: UTF8.self).contains("2026-12-01T00:00:00.500Z"))
    }

    @Test func unknownFieldIsAnErrorNamingIt() {
        let problem = problem(#"{"title":"T","titel":"typo"}"#)
        #expect(problem?.field == "titel")
        #expect(problem?.message.contains("unknown field") == true)
    }

    @Test func unknownButtonFieldNamesItsPath() {
        let problem = problem(#"{"title":"T","buttons":[{"id":"a","text":"A"},{"id":"b","text":"B","colour":"red"}]}"#)
        #expect(problem?.field == "buttons[1].colour")
    }

    @Test func wrongTypeNamesTheField() {
        let problem = problem(#"{"title":"T","badge":"three"}"#)
        #expect(problem?.field == "badge")
        #expect(problem?.message == "expected a whole number")
    }

    @Test func missingButtonTextIsRequired() {
        let problem = problem(#"{"title":"T","buttons":[{"id":"a"}]}"#)
        #expect(problem?.field == "buttons[0].text")
        #expect(problem?.message == "is required")
    }

    @Test func unknownButtonOptionIsRejected() {
        let problem = problem(#"{"title":"T","buttons":[{"id":"a","text":"A","options":["loud"]}]}"#)
        #expect(problem?.field == "buttons[0].options[0]")
    }

    @Test func badTimestampIsRejected() {
        let problem = problem(#"{"title":"T","expiresAt":"tomorrow"}"#)
        #expect(problem?.field == "expiresAt")
        #expect(problem?.message.contains("RFC 3339") == true)
    }

    @Test func absentOptionsMeanForeground() throws {
        let message = try decode(#"{"title":"T","buttons":[{"id":"a","text":"A"},{"id":"b","text":"B","options":[]}]}"#)
        #expect(message.buttons[0].options == [.foreground])
        #expect(message.buttons[1].options.members.isEmpty)
    }

    @Test func interruptionLevelKeepsUnknownValues() throws {
        let message = try decode(#"{"title":"T","interruptionLevel":"future-level"}"#)
        #expect(message.interruptionLevel?.rawValue == "future-level")
        #expect(message.validate().contains { $0.field == "interruptionLevel" && $0.code == "unknown_value" })
    }
}

@Suite("RFC 3339 times")
struct TimestampTests {
    @Test(arguments: ["2026-12-01T09:30:00Z", "2026-12-01T09:30:00.250Z", "2026-12-01T09:30:00+02:00", "2024-02-29T00:00:00-11:30"])
    func valid(_ text: String) {
        #expect(Timestamp.parse(text) != nil)
    }

    @Test(arguments: ["2026-12-01T12:99:00Z", "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2026-12-01 09:30:00Z", "2026-12-01T09:30:00",
                      "2026-12-01T24:00:00Z", "2026-12-01T09:30:00.Z", "2026-12-01T09:30:00+2:00", "tomorrow", ""])
    func invalid(_ text: String) {
        #expect(Timestamp.parse(text) == nil, "\(text) must be refused, not rolled over")
    }

    @Test func offsetsAreApplied() {
        #expect(Timestamp.parse("2026-12-01T11:30:00+02:00") == Timestamp.parse("2026-12-01T09:30:00Z"))
        #expect(Timestamp.format(Timestamp.parse("2026-12-01T09:30:00.250Z")!) == "2026-12-01T09:30:00.250Z")
        // RFC 3339 allows any offset up to 23:59 (Foundation's time zones stop at 18 hours).
        #expect(Timestamp.parse("2026-12-01T09:30:00-19:29") == Timestamp.parse("2026-12-02T04:59:00Z"))
        // Only times from 2000 to 2100 are taken (``Timestamp/accepted``), offsets applied first.
        #expect(Timestamp.parse("0001-01-01T00:00:00Z") == nil)
        #expect(Timestamp.parse("2100-01-01T00:00:00Z")?.timeIntervalSince1970 == 4_102_444_800)
        #expect(Timestamp.parse("2100-01-01T00:59:00+01:00") != nil && Timestamp.parse("2100-01-01T01:00:00.5+01:00") == nil)
    }

    /// The instant, computed from the fields, is the one Foundation's parser gives wherever that
    /// parser works: every month end, leap days, fractions, offsets both ways; and a time is
    /// refused exactly when that instant is outside 2000–2100.
    @Test(arguments: [
        "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2000-02-29T12:00:00Z", "2024-12-31T23:59:59.999Z", "1676-11-06T15:20:59Z",
        "2100-03-01T00:00:00+05:45", "1583-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-06-30T10:00:00.5-09:30",
    ])
    func agreesWithFoundation(_ text: String) throws {
        let foundation = try Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: text.contains(".")))
        guard let ours = Timestamp.parse(text) else {
            #expect(!Timestamp.accepted.contains(foundation.timeIntervalSince1970), "\(text) is from 2000 to 2100 but was refused")
            return
        }
        #expect(abs(ours.timeIntervalSince1970 - foundation.timeIntervalSince1970) < 0.001, "\(ours) vs \(foundation)")
    }
}
