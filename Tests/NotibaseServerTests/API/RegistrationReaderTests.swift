import Foundation
import NotibaseCore
import Testing
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
@testable import NotibaseServerTestSupport

/// The one reader of registration bodies, single and batch (docs/decisions/0038): the answer each
/// kind of body gets, field and message, including those only the strict decoder gave before; the
/// batch held to the strict decoder as the single route is (``RegistrationDecodingTests``); and
/// valid bodies, however they are written, read as `JSONDecoder` reads the core's request type.
@Suite("Registration reader: every body, single and batch")
struct RegistrationReaderTests {
    typealias Outcome = RegistrationDecodingTests.Outcome

    static let token = String(repeating: "ab", count: 32)
    static let known = "platform, token, externalUserId, externalUserIdToken, tags, locale, timeZone, appVersion, sdkVersion, previousToken, apnsEnvironment"

    /// A body in which only `extra` is added to a valid registration.
    static func with(_ extra: String) -> String {
        #"{"platform":"ios","token":"\#(token)",\#(extra)}"#
    }

    static func invalid(_ field: String, _ message: String) -> Outcome {
        .error(status: 400, code: "invalid_field", field: field, message: "\(field) \(message)")
    }

    static let malformed = Outcome.error(status: 400, code: "malformed_json", field: nil, message: DecodingProblem.malformedJSON.message)

    static func duplicate(_ field: String) -> Outcome {
        .error(status: 400, code: "duplicate_field", field: field, message: "\(field) appears more than once; send each field once")
    }

    static let table: [(String, Outcome)] = [
        // Fields the object does not have, or has twice (anywhere, nested too, escaped or not).
        (with(#""tgas":["a"]"#), .error(status: 400, code: "unknown_field", field: "tgas", message: #"unknown field "tgas"; the known fields are \#(known)"#)),
        (#"{"platform":"ios","pl\u0061tform":"ios","token":"\#(token)"}"#, duplicate("platform")),
        (#"{"platform":"windows","token":"\#(token)","token":"\#(token)"}"#, duplicate("token")),
        (with(#""x":1,"\u0078":2"#), duplicate("x")),
        (with(#""locale":{"a":1,"a":2}"#), duplicate("locale.a")),
        (with(#""tags":["a",{"b":[{"c":1,"c":2}]}]"#), duplicate("tags[1].b[0].c")),
        // Missing, null or of the wrong type, in the fields' declared order, an unknown field first.
        (#"{"token":"\#(token)"}"#, .error(status: 400, code: "missing_field", field: "platform", message: "platform is required")),
        (#"{"platform":"ios"}"#, .error(status: 400, code: "missing_field", field: "token", message: "token is required")),
        (#"{"platform":null,"token":"\#(token)"}"#, invalid("platform", "expected a string, found null")),
        (#"{"platform":"windows","token":"\#(token)"}"#, invalid("platform", "Cannot initialize Platform from invalid String value windows")),
        (#"{"platform":"ios","token":42}"#, invalid("token", "expected a string")),
        (#"{"platform":"ios","token":null}"#, invalid("token", "expected a string, found null")),
        (with(#""locale":true"#), invalid("locale", "expected a string")),
        (with(#""locale":-1.5e3"#), invalid("locale", "expected a string")),
        (with(#""appVersion":{"major":1}"#), invalid("appVersion", "expected a string")),
        (with(#""tags":"news""#), invalid("tags", "expected an array")),
        (with(#""tags":["news",7]"#), invalid("tags[1]", "expected a string")),
        (with(#""tags":["news",null,1]"#), invalid("tags[1]", "expected a string, found null")),
        (#"{"locale":1,"token":2,"platform":"ios"}"#, invalid("token", "expected a string")),
        (#"{"locale":1,"x":2,"platform":"ios","token":"\#(token)"}"#, .error(status: 400, code: "unknown_field", field: "x", message: #"unknown field "x"; the known fields are \#(known)"#)),
        ("[1, 2]", .error(status: 400, code: "invalid_field", field: nil, message: "expected an object")),
        ("null", .error(status: 400, code: "invalid_field", field: nil, message: "expected an object, found null")),
        // The rules, once the fields are read.
        (#"{"platform":"ios","token":"abc"}"#, invalid("token", "must be the APNs device token in hexadecimal (64 to 200 digits)")),
        (with(#""locale":"\u0065""#), invalid("locale", "must be a locale such as en, fr-FR or pt_BR")),
        (with(#""externalUserId":"a\u0000b""#), invalid("externalUserId", "must be 1 to 256 characters, none a control character")),
        // Not JSON: a syntax error wins over any field's problem met before it.
        (#"{"platform":"windows","token":"\#(token)"} x"#, malformed),
        (with(#""locale":"\ud800""#), malformed),
        (with(#""locale":"\udc00x""#), malformed),
        (with(#""locale":"\ud83d\u0041""#), malformed),
        (with(#""locale":"\U00e9""#), malformed),
        (with(#""locale":nul"#), malformed),
        (with(#""locale":.5"#), malformed),
        (with(#""locale":1x"#), malformed),
        (with("\"locale\":\"a\tb\""), malformed),
        (#"{"platform":"ios" "token":"\#(token)"}"#, malformed),
        (#"{,"platform":"ios","token":"\#(token)"}"#, malformed),
        (with(#""tags":["a",,"b"]"#), malformed),
        (#"{"platform":"ios","token":"\#(token)"}{}"#, malformed),
        (with(#""locale":\#(String(repeating: "[", count: 512))\#(String(repeating: "]", count: 512))"#), malformed),
        (with(#""locale":\#(String(repeating: "[", count: 511))\#(String(repeating: "]", count: 511))"#), invalid("locale", "expected a string")),
        // JSON as JSONDecoder takes it.
        (#" {"platform" : "ios" ,"token":"\#(token)", } "#, .registration(DeviceUpsert(platform: .ios, token: token))),
        (with(#""tags":["a",]"#), .registration(DeviceUpsert(platform: .ios, token: token, tags: ["a"]))),
        (with(#""externalUserId":"\u00e9t\u00C9 \ud83d\ude00 \"q\" \/""#), .registration(DeviceUpsert(platform: .ios, token: token, externalUserID: #"étÉ 😀 "q" /"#))),
        ("\u{FEFF}" + with(#""locale":"fr-FR""#), .registration(DeviceUpsert(platform: .ios, token: token, locale: "fr-FR"))),
    ]

    /// What `read` gives for `body` is `expected`, and what `strict` (the strict decoder) gave.
    static func expect<T: Equatable>(_ body: String, _ expected: T, read: ([UInt8]) -> T, strict: ([UInt8]) -> T) {
        let outcome = read(Array(body.utf8))
        #expect(outcome == expected, "\(body.prefix(120))")
        #expect(outcome == strict(Array(body.utf8)), "the strict decoder answered otherwise: \(body.prefix(120))")
    }

    @Test(arguments: table)
    func eachBodyGetsItsAnswer(body: String, expected: Outcome) {
        Self.expect(body, expected, read: RegistrationDecodingTests.routeOutcome, strict: RegistrationDecodingTests.strictOutcome)
    }

    /// UTF-16 and UTF-32 bodies (with or without a byte order mark) read as UTF-8 ones, as
    /// `JSONDecoder` read them; a lone surrogate in them is not JSON.
    @Test func otherUnicodeEncodingsAreRead() {
        let text = #"{"platform":"ios","token":"\#(Self.token)","externalUserId":"été 😀"}"#
        let utf16 = Array(text.utf16)
        let scalars = text.unicodeScalars.map(\.value)
        let bodies: [[UInt8]] = [
            utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] },
            utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] },
            [0xff, 0xfe] + utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] },
            [0xfe, 0xff] + utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] },
            scalars.flatMap { value in (0..<4).map { UInt8(value >> (8 * $0) & 0xff) } },
            [0, 0, 0xfe, 0xff] + scalars.flatMap { value in (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xff) } },
        ]
        for body in bodies {
            let outcome = RegistrationDecodingTests.routeOutcome(body)
            #expect(outcome == .registration(DeviceUpsert(platform: .ios, token: Self.token, externalUserID: "été 😀")), "\(body.prefix(8))")
            #expect(outcome == RegistrationDecodingTests.strictOutcome(body))
        }
        let lone = Array(#"{"platform":"ios","token":""#.utf16) + [0xd800] + Array(#""}"#.utf16)
        let body = lone.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        #expect(RegistrationDecodingTests.routeOutcome(body) == Self.malformed)
        #expect(RegistrationDecodingTests.strictOutcome(body) == Self.malformed)
    }

    // MARK: Batch

    /// What the batch route's reading gives: the registrations, or the error answer.
    enum BatchOutcome: Equatable, CustomStringConvertible {
        case registrations([DeviceUpsert])
        case error(Outcome)

        init(_ body: () throws -> [DeviceUpsert]) {
            do {
                self = .registrations(try body())
            } catch {
                self = .error(Outcome { throw error })
            }
        }

        var description: String {
            switch self {
            case .registrations(let registrations): "\(registrations.count) registrations"
            case .error(let outcome): "\(outcome)"
            }
        }
    }

    static func batchOutcome(_ body: [UInt8]) -> BatchOutcome {
        BatchOutcome { try RegistrationBody.decodeBatch(RegistrationDecodingTests.request(body)) }
    }

    static func strictBatchOutcome(_ body: [UInt8]) -> BatchOutcome {
        BatchOutcome { try JSON.decode(StrictBatchBody.self, from: RegistrationDecodingTests.request(body)).devices.map(\.registration) }
    }

    static let device = #"{"platform":"ios","token":"\#(token)"}"#

    static let batchTable: [(String, BatchOutcome)] = [
        (#"{"devices":[]}"#, .error(invalid("devices", "must hold from 1 to 10000 devices"))),
        ("{}", .error(.error(status: 400, code: "missing_field", field: "devices", message: "devices is required"))),
        (#"{"devices":null}"#, .error(invalid("devices", "expected an array, found null"))),
        (#"{"devices":{}}"#, .error(invalid("devices", "expected an array"))),
        (#"{"devices":[\#(device),1]}"#, .error(invalid("devices[1]", "expected an object"))),
        (#"{"devices":[\#(device),null]}"#, .error(invalid("devices[1]", "expected an object, found null"))),
        (#"{"devices":[\#(device),{"token":"\#(token)"}]}"#,
         .error(.error(status: 400, code: "missing_field", field: "devices[1].platform", message: "devices[1].platform is required"))),
        (#"{"devices":[\#(device),{"platform":"ios","token":"abc"}]}"#,
         .error(invalid("devices[1].token", "must be the APNs device token in hexadecimal (64 to 200 digits)"))),
        // A registration's rules are checked before the next registration's fields.
        (#"{"devices":[{"platform":"ios","token":"abc"},{"platform":"ios","token":1}]}"#,
         .error(invalid("devices[0].token", "must be the APNs device token in hexadecimal (64 to 200 digits)"))),
        (#"{"devices":[\#(device),{"platform":"ios","token":"\#(token)","tags":["a",2]}]}"#, .error(invalid("devices[1].tags[1]", "expected a string"))),
        (#"{"devices":[{"platform":"ios","token":"abc"}],"extra":1}"#,
         .error(.error(status: 400, code: "unknown_field", field: "extra", message: #"unknown field "extra"; the known fields are devices"#))),
        (#"{"devices":[{"platform":"ios","token":"\#(token)","tgas":1}]}"#,
         .error(.error(status: 400, code: "unknown_field", field: "devices[0].tgas", message: #"unknown field "tgas"; the known fields are \#(known)"#))),
        (#"{"devices":[\#(device),{"platform":"ios","token":"\#(token)","token":"\#(token)"}]}"#, .error(duplicate("devices[1].token"))),
        (#"{"devices":[\#(device)],"devices":[\#(device)]}"#, .error(duplicate("devices"))),
        (#"{"devices":[\#(device),]}"#, .registrations([DeviceUpsert(platform: .ios, token: token)])),
        (#"{"devices":[\#(device)]"#, .error(malformed)),
        ("[]", .error(.error(status: 400, code: "invalid_field", field: nil, message: "expected an object"))),
    ]

    @Test(arguments: batchTable)
    func eachBatchGetsItsAnswer(body: String, expected: BatchOutcome) {
        Self.expect(body, expected, read: Self.batchOutcome, strict: Self.strictBatchOutcome)
    }

    /// The count is checked once every registration is: 10,001 valid ones are too many, and one
    /// wrong among them is named first.
    @Test func tooManyDevicesAreCountedAfterEachIsChecked() {
        let many = Array(repeating: Self.device, count: 10_001)
        let tooMany = Array(#"{"devices":[\#(many.joined(separator: ","))]}"#.utf8)
        #expect(Self.batchOutcome(tooMany) == .error(Self.invalid("devices", "must hold from 1 to 10000 devices")))
        let oneWrong = Array(#"{"devices":[\#((many.dropLast() + [#"{"platform":"ios"}"#]).joined(separator: ","))]}"#.utf8)
        #expect(Self.batchOutcome(oneWrong) == .error(.error(status: 400, code: "missing_field", field: "devices[10000].token", message: "devices[10000].token is required")))
    }

    /// Batches of generated bodies (valid or not, JSON or not) answer as the strict decoder
    /// answered them.
    @Test func generatedBatchesDecodeAsTheStrictDecoderDecodesThem() async {
        let count = 1_000
        let (accepted, mismatch) = await offPool { () -> (Int, String?) in
            var generator = BodyGenerator(seed: 0xba7c4)
            var accepted = 0
            for _ in 0..<count {
                let devices = (0..<Int.random(in: 1...4, using: &generator)).map { _ in String(decoding: generator.body(), as: UTF8.self) }
                let body = Array(#"{"devices":[\#(devices.joined(separator: ","))]}"#.utf8)
                let outcome = Self.batchOutcome(body)
                if case .registrations = outcome { accepted += 1 }
                let strict = Self.strictBatchOutcome(body)
                if outcome != strict {
                    return (accepted, "\(String(decoding: body, as: UTF8.self)):\n  route:  \(outcome)\n  strict: \(strict)")
                }
            }
            return (accepted, nil)
        }
        #expect(mismatch == nil, "\(mismatch ?? "")")
        #expect(accepted > count / 20, "\(accepted) accepted")
    }

    // MARK: Valid bodies against the core's type

    /// Valid registrations written every way JSON allows (any order, whitespace, escapes in names
    /// and values, surrogate pairs, explicit nulls): the reader gives the registration that
    /// `JSONDecoder` gives for the core's `DeviceRegistrationRequest`, the SDK's type; and the
    /// batch of them the same list.
    @Test func validBodiesReadAsTheCoreTypeDecodes() async throws {
        let mismatch = await offPool { () -> String? in
            var writer = ValidBodyWriter(seed: 0xc0de)
            for _ in 0..<300 {
                var bodies: [String] = []
                var expected: [DeviceUpsert] = []
                for _ in 0..<Int.random(in: 1...5, using: &writer.random) {
                    let body = writer.body()
                    let reference = Outcome { try RegistrationBody.validate(JSONDecoder().decode(DeviceRegistrationRequest.self, from: Data(body.utf8))) }
                    let outcome = RegistrationDecodingTests.routeOutcome(Array(body.utf8))
                    guard case .registration(let registration) = reference, outcome == reference else {
                        return "\(body):\n  reader: \(outcome)\n  JSONDecoder: \(reference)"
                    }
                    bodies.append(body)
                    expected.append(registration)
                }
                let batch = Array(#"{"devices":[\#(bodies.joined(separator: ","))]}"#.utf8)
                let outcome = Self.batchOutcome(batch)
                if outcome != .registrations(expected) { return "batch \(String(decoding: batch, as: UTF8.self)): \(outcome)" }
            }
            return nil
        }
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }
}

/// Valid registration bodies from a seed, each field's value drawn from what its rule allows, and
/// the JSON written with every liberty the grammar gives.
struct ValidBodyWriter {
    var random: BodyGenerator

    init(seed: UInt64) {
        random = BodyGenerator(seed: seed)
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    private mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }

    /// Text without control characters: ASCII, accents, a combining mark, CJK, emoji, and the
    /// characters JSON escapes.
    private mutating func text(_ lengths: ClosedRange<Int>) -> String {
        let pieces: [String] = ["a", "Z", "7", " ", "-", "\"", "\\", "/", "é", "e\u{301}", "ß", "中", "😀", "🇫🇷", "\u{2028}", "~"]
        var text = ""
        let length = Int.random(in: lengths, using: &random)
        while text.unicodeScalars.count < length {
            let piece = pick(pieces)
            if text.unicodeScalars.count + piece.unicodeScalars.count <= length { text += piece } else { text += "x" }
        }
        return text
    }

    private mutating func hex(_ count: Int) -> String {
        String((0..<count).map { _ in pick(Array("0123456789abcdefABCDEF")) })
    }

    private mutating func space() -> String {
        chance(70) ? "" : pick([" ", "\n", "\t", "\r\n", "  \n  "])
    }

    /// `value` as a JSON string, each character written raw, as a short escape where there is one,
    /// or as `\u` (a surrogate pair beyond the BMP), at random.
    private mutating func literal(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if chance(20) {
                    if scalar == "/" && chance(50) { out += "\\/"; continue }
                    let units = Array(String(scalar).utf16)
                    for unit in units { out += "\\u" + (chance(50) ? String(format: "%04x", unit) : String(format: "%04X", unit)) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    mutating func body() -> String {
        let platform = pick(["ios", "ios", "android"])
        var members: [(String, String)] = [("platform", literal(platform))]
        let token = platform == "ios"
            ? hex(2 * Int.random(in: 32...100, using: &random))
            : String((0..<Int.random(in: 16...300, using: &random)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x21...0x7e, using: &random))) })
        members.append(("token", literal(token)))
        if chance(40) { members.append(("externalUserId", literal(text(1...256)))) }
        if chance(20) { members.append(("externalUserIdToken", literal(text(1...256)))) }
        if chance(40) {
            let tags = (0..<Int.random(in: 0...6, using: &random)).map { _ in text(1...64) }
            var array = "[" + space()
            for (index, tag) in tags.enumerated() { array += (index > 0 ? "," + space() : "") + literal(tag) + space() }
            members.append(("tags", array + "]"))
        }
        if chance(40) { members.append(("locale", literal(pick(["en", "fr-FR", "pt_BR", "zh-Hant-TW"])))) }
        if chance(40) { members.append(("timeZone", literal(pick(["Europe/Paris", "America/New_York", "UTC", "Asia/Kathmandu"])))) }
        if chance(30) { members.append(("appVersion", literal(text(1...64)))) }
        if chance(30) { members.append(("sdkVersion", literal(text(1...64)))) }
        if chance(20) { members.append(("previousToken", literal(hex(64)))) }
        if platform == "ios", chance(30) { members.append(("apnsEnvironment", literal(pick(["sandbox", "production", "development"])))) }
        for name in ["externalUserId", "tags", "locale", "timeZone", "appVersion", "sdkVersion", "previousToken"]
        where !members.contains(where: { $0.0 == name }) && chance(5) {
            members.append((name, "null"))
        }
        members.shuffle(using: &random)
        let written = members.map { name, value in
            // A name is a string too: sometimes a letter of it escaped.
            let key = chance(10) ? "\"" + name.prefix(1) + "\\u" + String(format: "%04x", name.utf16.dropFirst().first!) + name.dropFirst(2) + "\"" : "\"" + name + "\""
            return space() + key + space() + ":" + space() + value + space()
        }
        return space() + "{" + written.joined(separator: ",") + "}" + space()
    }
}
