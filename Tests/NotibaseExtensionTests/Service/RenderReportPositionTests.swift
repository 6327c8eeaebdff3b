import Foundation
import Testing
import NotibaseCore
import NotibaseTestSupport
@preconcurrency import UserNotificationsShim
@testable import NotibaseExtension
@testable import NotibaseExtensionTestSupport

/// The render report's diagnostics name each bad `nb_buttons` entry by its position in the
/// payload, as iOS hands the payload over (nulls as `NSNull`), whatever comes before it.
@Suite("Render reports name the payload's own positions")
struct RenderReportPositionTests {
    static let kinds: [(name: String, json: String, field: String)] = [
        ("null", "null", ""),
        ("number", "7", ""),
        ("string", #""track""#, ""),
        ("empty object", "{}", ".id"),
        ("no text", #"{"id":"bad"}"#, ".text"),
        ("duplicate id", #"{"id":"b0","text":"Again"}"#, ".id"),
        ("bad icon", #"{"id":"bad","text":"X","icon":"trash"}"#, ".icon"),
    ]

    @Test(arguments: kinds.map(\.name), 0..<4)
    func aBadEntryIsReportedAtItsPosition(kind name: String, position: Int) async throws {
        let kind = try #require(Self.kinds.first { $0.name == name })
        if kind.name == "duplicate id" && position == 0 { return }  // the first of two is not the repeat
        var entries = (0..<4).map { #"{"id":"b\#($0)","text":"B\#($0)"}"# }
        entries[position] = kind.json
        let json = #"{"aps":{"alert":{"title":"Order"},"mutable-content":1},"nb_delivery":"d","nb_buttons":[\#(entries.joined(separator: ","))]}"#
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [AnyHashable: Any])
        let files = TemporaryDirectory("notibase-positions")
        let poster = RecordingReceiptPoster()
        _ = await SimulatedDevice(name: "iPhone").deliver(payload: payload, to: TestNotificationService(directory: files.url, poster: poster))
        try await waitUntil { poster.receipts.withLock { !$0.isEmpty } }
        let diagnostics = try #require(poster.receipts.withLock { $0.first?.render?.diagnostics })
        let buttonDiagnostics = diagnostics.filter { $0.hasPrefix("nb_buttons[") }
        #expect(buttonDiagnostics.contains { $0.hasPrefix("nb_buttons[\(position)]\(kind.field):") }, "\(buttonDiagnostics)")
        #expect(buttonDiagnostics.allSatisfy { $0.hasPrefix("nb_buttons[\(position)]") }, "\(buttonDiagnostics)")
    }
}
