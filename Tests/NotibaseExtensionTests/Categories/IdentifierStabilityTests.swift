import Foundation
import Testing
import NotibaseCore
import NotibaseTestSupport

/// The second bug: identifiers that change between processes. The server and each launch of the
/// extension run in different processes; they must derive the same identifier.
@Suite("Identifiers across processes")
struct IdentifierStabilityTests {
    let buttons = #"[{"id":"track","text":"Track order"},{"id":"cancel","text":"Cancel","options":["destructive"]}]"#

    @Test func twoProcessesDeriveTheSameIdentifier() throws {
        let notibase = TestProducts.executable("notibase").path
        let first = try runToCompletion(notibase, ["category-id"], input: buttons)
        let second = try runToCompletion(notibase, ["category-id"], input: buttons)
        #expect(first.status == 0 && second.status == 0)
        #expect(first.output == second.output)
        let inProcess = CategoryIdentifier.derive(from: try JSONDecoder().decode([Button].self, from: Data(buttons.utf8)))
        #expect(first.output == inProcess + "\n")
    }

    /// What the naive `hashValue` gives: a different identifier in each process, so the category
    /// registered on one launch never matches the payload on the next.
    @Test func hashValueChangesBetweenProcesses() throws {
        let probe = TestProducts.executable("NaiveIdentifierProbe").path
        let outputs = try (0..<3).map { _ in try runToCompletion(probe, ["track", "Track order", "cancel", "Cancel"]).output }
        #expect(Set(outputs).count > 1, "Swift seeds hashValue per process: the naive identifiers should differ")
    }
}
