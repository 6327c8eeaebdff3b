import Foundation
import Testing
@testable import NotibaseCore

@Suite("Live Activity JSON")
struct LiveActivityCodingTests {
    static func problem(_ json: String) -> DecodingProblem? {
        do {
            _ = try JSONDecoder().decode(LiveActivityMessage.self, from: Data(json.utf8))
            return nil
        } catch {
            return DecodingProblem(error)
        }
    }

    @Test func roundTrips() throws {
        let message = LiveActivityMessage(
            event: .end, contentState: ["status": "done", "n": [1, 2.5, nil]], staleDate: Date(timeIntervalSince1970: 1_796_083_200),
            dismissalDate: Date(timeIntervalSince1970: 1_796_086_800), relevanceScore: 10, alert: .init(title: "T", body: "B", sound: "default"),
            priority: .normal, display: .init(title: "D", body: "E", progress: 0.5))
        let decoded = try JSONDecoder().decode(LiveActivityMessage.self, from: JSONEncoder().encode(message))
        #expect(decoded == message)
    }

    @Test func unknownFieldsAreNamed() {
        #expect(Self.problem(#"{"event":"update","contentState":{},"stalDate":"2026-12-01T00:00:00Z"}"#)?.kind == .unknownField)
        #expect(Self.problem(#"{"event":"update","contentState":{},"alert":{"titel":"x"}}"#)?.field == "alert.titel")
        #expect(Self.problem(#"{"event":"update","contentState":{},"display":{"percent":1}}"#)?.kind == .unknownField)
    }

    @Test func theContentStateIsARequiredObject() {
        #expect(Self.problem(#"{"event":"update"}"#).map { "\($0.field) \($0.kind)" } == "contentState missingField")
        #expect(Self.problem(#"{"event":"update","contentState":[1]}"#)?.field == "contentState")
        #expect(Self.problem(#"{"event":"start","contentState":{},"attributes":"x"}"#)?.field == "attributes")
    }

    @Test func datesAreRFC3339() {
        #expect(Self.problem(#"{"event":"end","contentState":{},"dismissalDate":1796083200}"#)?.field == "dismissalDate")
        #expect(Self.problem(#"{"event":"end","contentState":{},"dismissalDate":"tomorrow"}"#)?.message.contains("RFC 3339") == true)
    }
}
