import Foundation
import Testing
@testable import NotibaseCLI
import NotibaseTestSupport
@testable import NotibaseCLITestSupport

@Suite("notibase preview")
struct PreviewCommandTests {
    func preview(_ input: String, _ arguments: [String] = []) async throws -> (result: [String: Any], problems: [String]) {
        let run = await runCommand(["preview", "--json"] + arguments, input: input)
        #expect(run.status == 0, "\(run.error)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        return (result, result["problems"] as? [String] ?? [])
    }

    func buttonIDs(_ result: [String: Any]) -> [String] {
        (result["buttons"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func aMessageIsRenderedAndItsButtonsDrawn() async throws {
        let (result, problems) = try await preview(#"{"title":"Order shipped","buttons":[{"id":"track","text":"Track"},{"id":"cancel","text":"Cancel"}]}"#)
        #expect(buttonIDs(result) == ["track", "cancel"])
        #expect(result["extensionRan"] as? Bool == true)
        #expect(result["categoryIdentifier"] as? String == "nb_5404b4e3b318342c" || (result["categoryIdentifier"] as? String)?.hasPrefix("nb_") == true)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func withoutMutableContentTheExtensionNeverRuns() async throws {
        let (result, problems) = try await preview(
            #"{"aps":{"alert":{"title":"Hi"},"category":"nb_5404b4e3b318342c"},"nb_buttons":[{"id":"track","text":"Track order"},{"id":"cancel","text":"Cancel"}]}"#)
        #expect(buttonIDs(result).isEmpty)
        #expect(problems.contains { $0.contains("mutable-content is not 1") })
        #expect(problems.contains { $0.contains("nothing registers a category") })
    }

    @Test func anUnregisteredAppCategoryDrawsNothingUntilTheAppRegistersIt() async throws {
        let payload = #"{"aps":{"alert":"Dinner?","category":"INVITE"}}"#
        let (before, problems) = try await preview(payload)
        #expect(buttonIDs(before).isEmpty)
        #expect(problems.contains { $0.contains("\"INVITE\", but nothing registers") })

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("categories-\(UUID().uuidString).json")
        try #"[{"identifier":"INVITE","buttons":[{"id":"yes","text":"Yes"},{"id":"no","text":"No"}]}]"#.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (after, afterProblems) = try await preview(payload, ["--categories", file.path])
        #expect(buttonIDs(after) == ["yes", "no"])
        #expect(afterProblems.isEmpty)
    }

    @Test func anOversizedPayloadIsExplained() async throws {
        let big = String(repeating: "x", count: 5000)
        let (_, problems) = try await preview(#"{"aps":{"alert":"Hi"},"blob":"\#(big)"}"#)
        #expect(problems.contains { $0.contains("APNs refuses anything over 4096") })
    }

    @Test func anHTTPImageIsExplained() async throws {
        let (result, problems) = try await preview(
            #"{"aps":{"alert":"Photo","mutable-content":1},"nb_image":"http://example.com/a.jpg"}"#)
        #expect((result["image"] as? [String: Any])?["attached"] as? Bool == false)
        #expect(problems.contains { $0.contains("iOS loads only https") })
    }

    @Test func withoutTheExtensionNotibaseButtonsNeverAppear() async throws {
        let (result, problems) = try await preview(#"{"title":"T","buttons":[{"id":"a","text":"A"}]}"#, ["--no-extension"])
        #expect(buttonIDs(result).isEmpty)
        #expect(problems.contains { $0.contains("no Notification Service Extension") })
    }

    @Test func textOutputNamesTheButtons() async {
        let run = await runCommand(["preview"], input: #"{"title":"T","body":"B","buttons":[{"id":"a","text":"Accept"}]}"#)
        #expect(run.status == 0)
        #expect(run.output.contains("Buttons:  [Accept]"))
    }

    @Test(arguments: [("[1]", "expected a JSON object"), (#"{"titel":"x"}"#, "unknown field"), ("{", "not valid JSON")])
    func badInput(input: String, mentions: String) async {
        let run = await runCommand(["preview"], input: input)
        #expect(run.status == 1)
        #expect(run.error.contains(mentions), "\(run.error)")
    }

    @Test func invalidMessageListsItsProblems() async {
        let run = await runCommand(["preview"], input: #"{"buttons":[{"id":"a","text":""}]}"#)
        #expect(run.status == 1)
        #expect(run.error.contains("buttons[0].text"))
        #expect(run.error.contains("title or a body"))
    }
}
