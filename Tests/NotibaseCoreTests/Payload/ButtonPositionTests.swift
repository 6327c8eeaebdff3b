import Foundation
import Testing
@testable import NotibaseCore

/// Every diagnostic about `nb_buttons` names the position the entry has in the payload, whatever
/// the entries before it are, and however the payload reached the reader: as iOS hands it over
/// (`JSONSerialization`, nulls as `NSNull`), as parsed JSON (`notibase preview`, the server), or as
/// FCM's JSON string.
@Suite("Button diagnostics name the payload's own positions")
struct ButtonPositionTests {
    /// A kind of bad entry, as JSON, and the field its diagnostic names (after `nb_buttons[i]`).
    struct Bad: Sendable, CustomStringConvertible {
        var name: String
        var json: String
        var field: String
        /// Whether the entry still becomes a button (a bad option, icon or input only loses that part).
        var kept = false
        var description: String { name }
    }

    static let kinds: [Bad] = [
        Bad(name: "null", json: "null", field: ""),
        Bad(name: "number", json: "42", field: ""),
        Bad(name: "string", json: #""track""#, field: ""),
        Bad(name: "array", json: #"[{"id":"x","text":"X"}]"#, field: ""),
        Bad(name: "empty object", json: "{}", field: ".id"),
        Bad(name: "null id", json: #"{"id":null,"text":"X"}"#, field: ".id"),
        Bad(name: "empty id", json: #"{"id":"","text":"X"}"#, field: ".id"),
        Bad(name: "reserved id", json: #"{"id":"com.apple.x","text":"X"}"#, field: ".id"),
        Bad(name: "no text", json: #"{"id":"bad"}"#, field: ".text"),
        Bad(name: "duplicate id", json: #"{"id":"b0","text":"Again"}"#, field: ".id"),
        Bad(name: "bad options", json: #"{"id":"bad","text":"X","options":"loud"}"#, field: ".options", kept: true),
        Bad(name: "null option", json: #"{"id":"bad","text":"X","options":[null]}"#, field: ".options[0]", kept: true),
        Bad(name: "bad icon", json: #"{"id":"bad","text":"X","icon":"trash"}"#, field: ".icon", kept: true),
        Bad(name: "bad input", json: #"{"id":"bad","text":"X","input":"yes"}"#, field: ".input", kept: true),
    ]

    static let count = 6

    /// `count` good buttons `b0…b5`, with `bad` at `position` instead, and nulls at every position
    /// before it that is not the first (so that a dropped null would shift what follows).
    static func entries(_ bad: Bad, at position: Int) -> (json: String, expectedIDs: [String]) {
        var entries: [String] = []
        var ids: [String] = []
        for index in 0..<count {
            if index == position {
                entries.append(bad.json)
                if bad.kept { ids.append("bad") }
            } else {
                entries.append(#"{"id":"b\#(index)","text":"B\#(index)"}"#)
                ids.append("b\(index)")
            }
        }
        return ("[" + entries.joined(separator: ",") + "]", ids)
    }

    static func payloadJSON(buttons: String) -> String {
        #"{"aps":{"alert":{"title":"Order"},"mutable-content":1},"nb_buttons":\#(buttons)}"#
    }

    static let cases: [(Bad, Int)] = kinds.flatMap { bad in
        (0..<count).filter { bad.name != "duplicate id" || $0 > 0 }.map { (bad, $0) }
    }

    func check(_ payload: NotificationPayload, _ bad: Bad, _ position: Int, _ ids: [String], _ form: String) {
        #expect(payload.buttons.map(\.id) == ids, "\(form): \(bad) at \(position)")
        let fields = payload.diagnostics.map(\.field).filter { $0.hasPrefix("nb_buttons[") }
        #expect(!fields.isEmpty, "\(form): no diagnostic for \(bad) at \(position)")
        #expect(fields.allSatisfy { $0.hasPrefix("nb_buttons[\(position)]") }, "\(form): \(bad) at \(position) reported as \(fields)")
        #expect(fields.contains("nb_buttons[\(position)]\(bad.field)"), "\(form): \(bad) at \(position) reported as \(fields)")
    }

    @Test(arguments: cases)
    func asIOSHandsItOver(_ bad: Bad, _ position: Int) throws {
        let (buttons, ids) = Self.entries(bad, at: position)
        let userInfo = try #require(try JSONSerialization.jsonObject(with: Data(Self.payloadJSON(buttons: buttons).utf8)) as? [AnyHashable: Any])
        check(NotificationPayload(userInfo: userInfo), bad, position, ids, "JSONSerialization")
    }

    @Test(arguments: cases)
    func asParsedJSON(_ bad: Bad, _ position: Int) throws {
        let (buttons, ids) = Self.entries(bad, at: position)
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Self.payloadJSON(buttons: buttons).utf8))
        check(NotificationPayload(json: json), bad, position, ids, "JSONValue")
        // What `notibase preview` hands the simulated device: the same positions.
        let userInfo = try #require(json.foundationValue as? [String: Any])
        check(NotificationPayload(userInfo: userInfo), bad, position, ids, "foundationValue")
    }

    @Test(arguments: cases)
    func asAnFCMString(_ bad: Bad, _ position: Int) throws {
        let (buttons, ids) = Self.entries(bad, at: position)
        let userInfo: [AnyHashable: Any] = ["aps": ["alert": "x"], "nb_buttons": buttons]
        check(NotificationPayload(userInfo: userInfo), bad, position, ids, "FCM string")
    }

    @Test func nullsBeforeAnEntryDoNotShiftIt() throws {
        let buttons = #"[null,{"id":"a","text":"A"},null,null,{"id":"","text":"X"}]"#
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Self.payloadJSON(buttons: buttons).utf8))
        let fields = NotificationPayload(json: json).diagnostics.map(\.field)
        #expect(fields == ["nb_buttons[0]", "nb_buttons[2]", "nb_buttons[3]", "nb_buttons[4].id"])
    }
}
