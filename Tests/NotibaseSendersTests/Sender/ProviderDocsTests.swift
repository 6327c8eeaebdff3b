import Foundation
import Testing
@testable import NotibaseSenders

@Suite("docs/providers.md lists every provider answer")
struct ProviderDocsTests {
    private var page: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("docs/providers.md"), encoding: .utf8)
        }
    }

    @Test("every APNs reason in the table has its row in the page")
    func apns() throws {
        let page = try page
        for row in APNsAnswerTable.rows {
            #expect(page.contains("| \(row.status) | `\(row.reason.rawValue)` |"), "missing \(row.reason.rawValue)")
            #expect(page.contains(row.explanation), "stale explanation for \(row.reason.rawValue)")
        }
    }

    @Test("every FCM error code in the table has its row in the page")
    func fcm() throws {
        let page = try page
        for row in FCMAnswerTable.rows + [FCMAnswerTable.invalidRegistrationToken] {
            #expect(page.contains("| \(row.status) | `\(row.code.rawValue)`"), "missing \(row.code.rawValue)")
            #expect(page.contains(row.explanation), "stale explanation for \(row.code.rawValue)")
        }
    }
}
