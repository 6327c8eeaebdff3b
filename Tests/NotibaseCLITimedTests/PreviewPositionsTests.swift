import Foundation
import Testing
@testable import NotibaseCLI
import NotibaseTestSupport
@testable import NotibaseCLITestSupport

/// `notibase preview` names every bad `nb_buttons` entry by the position it has in the payload,
/// with a `null` anywhere before it.
@Suite("notibase preview names the payload's own positions")
struct PreviewPositionsTests {
    @Test(arguments: 0..<5)
    func aNullDoesNotShiftTheEntriesAfterIt(nullAt position: Int) async throws {
        var entries = (0..<5).map { #"{"id":"b\#($0)","text":"B\#($0)"}"# }
        entries[position] = "null"
        entries.append(#"{"id":"","text":"Empty id"}"#)   // at [5]
        entries.append(#"{"id":"b6","text":"B6","icon":"trash"}"#)   // at [6]
        let payload = #"{"aps":{"alert":{"title":"Order"},"mutable-content":1},"nb_buttons":[\#(entries.joined(separator: ","))]}"#
        let run = await runCommand(["preview", "--json"], input: payload)
        #expect(run.status == 0, "\(run.error)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let problems = (result["problems"] as? [String] ?? []).filter { $0.hasPrefix("Payload: nb_buttons") }
        #expect(problems == [
            "Payload: nb_buttons[\(position)]: expected an object; skipped",
            "Payload: nb_buttons[5].id: missing or empty; skipped",
            #"Payload: nb_buttons[6].icon: "trash" is neither system:NAME nor template:NAME; drawn without an icon"#,
        ])
        let drawn = (result["buttons"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(drawn == (0..<5).filter { $0 != position }.map { "b\($0)" } + ["b6"])
    }
}
