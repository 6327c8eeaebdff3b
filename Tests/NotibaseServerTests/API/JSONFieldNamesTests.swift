import Testing
@testable import NotibaseServer

@Suite("Field names of a JSON object (the registration fast path)")
struct JSONFieldNamesTests {
    @Test(arguments: [
        (#"{"platform": "ios", "tags": ["a", "b,c"], "x": {"y": [1, {"z": null}]}, "n": -1.5e3, "t": true}"#, ["platform", "tags", "x", "n", "t"]),
        (#" { } "#, []),
        (#"{"quote": "a \"b\" c", "k": "\\"}"#, ["quote", "k"]),
    ] as [(String, [String])])
    func readsTopLevelNamesOnly(json: String, names: [String]) {
        #expect(JSONFieldNames.topLevel(of: Array(json.utf8)) == names)
    }

    @Test(arguments: [#"[1, 2]"#, #"{"a": 1"#, #"{"a" 1}"#, #"{"a": 1} x"#, #"{"a\u0062": 1}"#, #"{"a": [1}"#, ""])
    func anythingUnusualTakesTheStrictPath(json: String) {
        #expect(JSONFieldNames.topLevel(of: Array(json.utf8)) == nil)
    }
}
