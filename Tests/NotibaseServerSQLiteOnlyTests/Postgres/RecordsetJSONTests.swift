import Foundation
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
import Testing
@testable import NotibaseServerTestSupport

/// The rows PostgreSQL's `jsonb_to_recordset` reads from a send's fan-out and record, written by
/// hand: the same JSON values as Foundation's `JSONEncoder` wrote, whatever the text holds. It
/// needs no store.
@Suite struct RecordsetJSONTests {
    private struct Row: Encodable {
        var id: String
        var device: Int
        var variant: String?
        var due: Int?
        var tags: [String]?
        var flag: Bool
    }

    @Test func writesWhatJSONEncoderWrote() throws {
        let texts = ["plain", "quote \" and backslash \\", "line\nbreak\ttab\r", "control \u{01}\u{1F}\u{7F}", "é ✓ 🚀", "</script>", "", "u\u{2028}v"]
        var rows: [Row] = []
        for (index, text) in texts.enumerated() {
            rows.append(Row(
                id: text, device: index * 7_919 - 3, variant: index % 2 == 0 ? text : nil, due: index % 3 == 0 ? nil : Int.max - index,
                tags: index % 4 == 1 ? nil : Array(texts.prefix(index)), flag: index % 2 == 1))
        }
        rows.append(Row(id: "min", device: Int.min, variant: nil, due: 0, tags: [], flag: false))
        let written = RecordsetJSON.of(rows) { row, json in
            json.field("id", row.id)
            json.field("device", row.device)
            json.field("variant", row.variant)
            json.field("due", row.due)
            json.field("tags", row.tags)
            json.field("flag", row.flag)
        }
        let mine = try #require(JSONSerialization.jsonObject(with: Data(written.utf8)) as? NSArray)
        let theirs = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(rows)) as? NSArray)
        #expect(mine == theirs)
        #expect(mine.count == texts.count + 1)
    }

    @Test func noRowsIsAnEmptyArray() {
        #expect(RecordsetJSON.of([Row]()) { _, _ in } == "[]")
    }
}
