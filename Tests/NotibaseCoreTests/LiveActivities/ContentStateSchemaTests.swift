import Foundation
import NotibaseCore
import Testing

@Suite("Live Activities: the content state's schema")
struct ContentStateSchemaTests {
    struct Courier: Codable, Hashable {
        var name: String
    }

    enum Stage: String, Codable, Hashable, CaseIterable {
        case cooking, onItsWay, delivered
    }

    struct DeliveryState: Codable, Hashable {
        var status: String
        var minutesLeft: Int
        var progress: Double
        var late: Bool
        var courier: Courier
        var stops: [String]
        var stage: Stage
        var eta: Date
        var note: String?
        var tracking: URL?
    }

    static let schema = ContentStateSchema(fields: [
        .init(key: "status", type: .string), .init(key: "minutesLeft", type: .integer), .init(key: "progress", type: .number),
        .init(key: "late", type: .boolean), .init(key: "courier", type: .object), .init(key: "stops", type: .array),
        .init(key: "stage", type: .string), .init(key: "eta", type: .number), .init(key: "note", type: .string, optional: true),
        .init(key: "tracking", type: .string, optional: true),
    ])

    @Test func theSchemaIsRecordedFromTheTypeItself() throws {
        #expect(try ContentStateSchema(recording: DeliveryState.self) == Self.schema)
    }

    @Test func customCodingKeysAreTheJSONKeys() throws {
        struct Renamed: Codable, Hashable {
            var minutesLeft: Int
            enum CodingKeys: String, CodingKey { case minutesLeft = "minutes_left" }
        }
        #expect(try ContentStateSchema(recording: Renamed.self).fields == [.init(key: "minutes_left", type: .integer)])
    }

    @Test func aTypeThatIsNotAnObjectHasNoSchema() {
        #expect(throws: SchemaRecordingError.self) { try ContentStateSchema(recording: String.self) }
    }

    /// The problems are exactly what would make JSONDecoder refuse the state.
    @Test(arguments: [
        (#"{"status": "cooking", "minutesLeft": 20}"#, [String]()),
        (#"{"status": "cooking", "minutesLeft": 20, "unknown": true}"#, []),
        (#"{"status": "cooking", "minutesLeft": 20.0}"#, []),
        (#"{"status": "cooking"}"#, [#"content state lacks "minutesLeft" (integer), which the app requires"#]),
        (#"{"status": "cooking", "minutesLeft": null}"#, [#"content state lacks "minutesLeft" (integer), which the app requires"#]),
        (#"{"status": 7, "minutesLeft": 2.5}"#, [
            #"content state "status" is integer, the app decodes string"#, #"content state "minutesLeft" is number, the app decodes integer"#,
        ]),
    ])
    func problemsAreWhatTheDecoderRefuses(json: String, problems: [String]) throws {
        struct State: Codable, Hashable {
            var status: String
            var minutesLeft: Int
            var note: String?
        }
        let schema = try ContentStateSchema(recording: State.self)
        let value = try JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8))
        #expect(schema.problems(in: value) == problems)
        let decodes = (try? JSONDecoder().decode(State.self, from: Data(json.utf8))) != nil
        #expect(decodes == problems.isEmpty)
    }

    @Test func theReportsJSONIsTheContracts() throws {
        let report = LiveActivityReport(
            deviceToken: "ab", kind: .pushToStartToken, attributesType: "DeliveryAttributes", token: "cd",
            contentStateSchema: ContentStateSchema(fields: [.init(key: "minutesLeft", type: .integer)]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(json == #"{"attributesType":"DeliveryAttributes","contentStateSchema":{"fields":[{"key":"minutesLeft","optional":false,"type":"integer"}]},"deviceToken":"ab","kind":"pushToStartToken","token":"cd"}"#)
        #expect(try JSONDecoder().decode(LiveActivityReport.self, from: Data(json.utf8)) == report)
    }
}
