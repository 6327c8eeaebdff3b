import Foundation
import Testing
@testable import NotibaseCLI
@testable import NotibaseCLITestSupport

@Suite("notibase category-id and render")
struct CoreCommandTests {
    static let vectors: [(buttons: String, identifier: String)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("NotibaseCoreTests/Fixtures/category-identifiers.json")
        let data = try! Data(contentsOf: url)
        let file = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (file["vectors"] as! [[String: Any]]).map { vector in
            let buttons = try! JSONSerialization.data(withJSONObject: vector["nb_buttons"]!)
            return (String(decoding: buttons, as: UTF8.self), vector["identifier"] as! String)
        }
    }()

    @Test func categoryIDPrintsEveryVector() async {
        #expect(Self.vectors.count >= 17)
        for vector in Self.vectors {
            let result = await runCommand(["category-id"], input: vector.buttons)
            #expect(result.status == 0)
            #expect(result.output == vector.identifier + "\n")
        }
    }

    @Test(arguments: [
        ("", "is not valid JSON"), ("{}", "expected an array"), (#"[{"id":"a"}]"#, "[0].text is required"),
        (#"[{"id":"a","text":"A","colour":1}]"#, "unknown field \"colour\""), (#"[{"id":"a","text":"A","options":["x"]}]"#, "[0].options[0]"),
    ])
    func categoryIDRejectsBadInput(input: String, mentions: String) async {
        let result = await runCommand(["category-id"], input: input)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains(mentions), "\(result.error)")
    }

    @Test func renderPrintsTheRequest() async {
        let result = await runCommand(
            ["render", "--platform", "ios", "--token", "ab", "--topic", "com.example", "--delivery-id", "3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b"],
            input: #"{"title":"Hi","buttons":[{"id":"track","text":"Track"}]}"#)
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "POST /3/device/ab")
        #expect(lines.contains("apns-topic: com.example"))
        #expect(lines.contains("apns-id: 3f2a8c1e-6b4d-4e8f-9a7b-1c2d3e4f5a6b"))
        #expect(result.output.contains(#""category":"nb_40398f050d7a9fdd""#))
    }

    @Test func renderJSONIsValidJSON() async throws {
        let result = await runCommand(["render", "--platform", "android", "--json"], input: #"{"title":"Hi","data":{"k":1}}"#)
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let data = ((json?["body"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: String]
        #expect(data?["k"] == "1")
    }

    @Test func renderReportsEveryValidationError() async {
        let result = await runCommand(
            ["render", "--platform", "android"],
            input: #"{"buttons":[{"id":"a","text":"A"},{"id":"b","text":"B"},{"id":"c","text":"C"},{"id":"d","text":"D"}],"data":{"aps":1}}"#)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("body:"))
        #expect(result.error.contains("Android shows at most 3"))
        #expect(result.error.contains("data.aps"))
    }

    @Test func renderWarnsOnStandardError() async {
        let result = await runCommand(
            ["render", "--platform", "ios"],
            input: #"{"title":"T","buttons":[{"id":"a","text":"A"},{"id":"b","text":"B"},{"id":"c","text":"C"}]}"#)
        #expect(result.status == 0)
        #expect(result.error.contains("warning: buttons: iOS shows only the first 2 buttons in a banner"))
    }

    @Test(arguments: [
        (["render"], "--platform is required"), (["render", "--platform", "windows"], "must be ios or android"),
        (["render", "--platform", "ios", "--now", "later"], "--now must be"), (["render", "--bogus"], "unknown option --bogus"),
        (["category-id", "extra"], "unexpected argument 'extra'"), (["render", "--platform"], "--platform needs a value"),
    ])
    func usageErrorsExitTwo(arguments: [String], mentions: String) async {
        let result = await runCommand(arguments, input: #"{"title":"T"}"#)
        #expect(result.status == 2)
        #expect(result.error.contains(mentions), "\(result.error)")
        #expect(result.error.contains("usage:"))
    }

    @Test func unknownCommand() async {
        let result = await runCommand(["frobnicate"])
        #expect(result.status == 2)
        #expect(result.error.contains("unknown command 'frobnicate'"))
    }
}
