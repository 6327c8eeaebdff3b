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

/// The registration route reads every body with its own reader (docs/decisions/0038); the strict
/// decoder it replaced (``StrictRegistrationBody``) is the reference: the answer must be the one the
/// strict decoder alone gave.
@Suite("Registration decoding: the reader answers as the strict decoder did")
struct RegistrationDecodingTests {
    /// What decoding a body gives: the registration, or the error answer's status, code, field and
    /// message.
    enum Outcome: Equatable, CustomStringConvertible {
        case registration(DeviceUpsert)
        case error(status: Int, code: String, field: String?, message: String)

        init(_ body: () throws -> DeviceUpsert) {
            do {
                self = .registration(try body())
            } catch let error as APIError {
                self = .error(status: error.status, code: error.code, field: error.field, message: error.message)
            } catch {
                self = .error(status: 0, code: "not an APIError", field: nil, message: "\(error)")
            }
        }

        var description: String {
            switch self {
            case .registration(let registration): "\(registration)"
            case .error(let status, let code, let field, let message): "\(status) \(code) \(field ?? "-"): \(message)"
            }
        }
    }

    static func request(_ body: [UInt8]) -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/v1/devices", headers: ["content-type": "application/json"], body: body)
    }

    /// The route's decoding.
    static func routeOutcome(_ body: [UInt8]) -> Outcome {
        Outcome { try RegistrationBody.decode(request(body)) }
    }

    /// The strict decoder alone.
    static func strictOutcome(_ body: [UInt8]) -> Outcome {
        Outcome { try JSON.decode(StrictRegistrationBody.self, from: request(body)).registration }
    }

    static let token = String(repeating: "ab", count: 32)

    @Test(arguments: [
        #"{"platform":"ios","token":"\#(token)"}"#,
        #"{"platform":"ios","token":"\#(token)","locale":"en-US","tags":["bench"],"appVersion":"1.0"}"#,
        #" { "token" : "\#(token.uppercased())" , "platform" : "ios" } "#,
        "{\n\t\"platform\": \"android\",\r\n\t\"token\": \"fcm-0123456789abcdef:xyz\"\n}",
        #"{"platform":"ios","token":"\#(token)","externalUserId":"user-42","tags":["news","vip","news"],"locale":"fr-FR","timeZone":"Europe\/Paris","appVersion":"3.1","sdkVersion":"1.0","previousToken":"\#(String(repeating: "cd", count: 32))"}"#,
        #"{"platform":"ios","token":"\#(token)","externalUserId":null,"tags":null,"locale":null,"timeZone":null,"appVersion":null,"sdkVersion":null,"previousToken":null}"#,
        #"{"platform":"ios","token":"\#(token)","tags":[],"externalUserId":"\u00e9t\u00C9 \ud83d\ude00 \"q\" \\ \/"}"#,
        #"{"platform":"ios","token":"\#(token)","externalUserId":"été 😀","tags":[ "a" , "b" ]}"#,
    ])
    func plainBodiesDecodeAsTheStrictDecoderDoes(body: String) throws {
        let bytes = Array(body.utf8)
        let outcome = Self.routeOutcome(bytes)
        guard case .registration = outcome else {
            Issue.record("\(body) gave \(outcome)")
            return
        }
        #expect(outcome == Self.strictOutcome(bytes), "\(body)")
    }

    /// Control characters, escaped or not, are refused (issue 28) as the strict decoder refused them.
    @Test(arguments: [#"\b\f\n\r\t \u0000"#, #"a\u0000b"#, #"\u001f"#, "a\u{7f}", "\u{85}"])
    func controlCharactersAreRefusedAsTheStrictDecoderRefusedThem(userID: String) throws {
        let bytes = Array(#"{"platform":"ios","token":"\#(Self.token)","externalUserId":"\#(userID)"}"#.utf8)
        let outcome = Self.routeOutcome(bytes)
        if case .registration = outcome { Issue.record("\(userID) was taken") }
        #expect(outcome == Self.strictOutcome(bytes))
    }

    @Test func escapesAreDecoded() throws {
        let body = #"{"platform":"ios","token":"\#(Self.token)","timeZone":"America\/New_York","externalUserId":"caf\u00e9 \ud83d\ude00"}"#
        let fields = try RegistrationReader.registration(in: Array(body.utf8))
        #expect(fields.timeZone == "America/New_York")
        #expect(fields.externalUserId == "café 😀")
    }

    @Test(arguments: [
        // Not JSON, or not one object.
        "", " ", "[]", "null", #""x""#, "{", #"{"platform":"ios","token":"\#(token)"} x"#, #"{"platform":"ios","token":"\#(token)"}}"#,
        #"{"platform":"ios","token":"\#(token)",}"#, #"{"platform":"ios" "token":"\#(token)"}"#, #"{"platform":"ios","token":"\#(token)""#,
        #"{"platform":"ios","token":"\#(token)}"#, "\u{FEFF}{\"platform\":\"ios\",\"token\":\"\(token)\"}",
        // Missing, unknown, escaped or repeated names.
        "{}", #"{"platform":"ios"}"#, #"{"token":"\#(token)"}"#, #"{"platform":"ios","token":"\#(token)","tgas":["a"]}"#,
        #"{"pl\u0061tform":"ios","token":"\#(token)"}"#, #"{"platform":"ios","platform":"android","token":"\#(token)"}"#,
        #"{"platform":"ios","token":"\#(token)","locale":"en","locale":"fr"}"#,
        // Wrong types.
        #"{"platform":"windows","token":"\#(token)"}"#, #"{"platform":null,"token":"\#(token)"}"#, #"{"platform":"ios","token":null}"#,
        #"{"platform":"ios","token":42}"#, #"{"platform":"ios","token":"\#(token)","tags":"news"}"#, #"{"platform":"ios","token":"\#(token)","tags":[1]}"#,
        #"{"platform":"ios","token":"\#(token)","tags":[null]}"#, #"{"platform":"ios","token":"\#(token)","tags":[["a"]]}"#,
        #"{"platform":"ios","token":"\#(token)","locale":true}"#, #"{"platform":"ios","token":"\#(token)","locale":{}}"#,
        #"{"platform":"ios","token":"\#(token)","locale":nul}"#, #"{"platform":"ios","token":"\#(token)","tags":["a",]}"#,
        // Bad strings.
        #"{"platform":"ios","token":"\#(token)","locale":"\x"}"#, #"{"platform":"ios","token":"\#(token)","locale":"\ud800"}"#,
        #"{"platform":"ios","token":"\#(token)","locale":"\udc00x"}"#, #"{"platform":"ios","token":"\#(token)","locale":"\u12"}"#,
        "{\"platform\":\"ios\",\"token\":\"\(token)\",\"locale\":\"a\tb\"}",
    ])
    func unusualBodiesGetTheStrictDecodersAnswer(body: String) {
        #expect(Self.routeOutcome(Array(body.utf8)) == Self.strictOutcome(Array(body.utf8)))
    }

    @Test func invalidUTF8GetsTheStrictDecodersAnswer() {
        for bad in [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe9, 0x74]] as [[UInt8]] {
            let body = Array(#"{"platform":"ios","token":"\#(Self.token)","locale":""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(Self.routeOutcome(body) == Self.strictOutcome(body))
        }
    }

    /// Every field's rule, broken one at a time in a body that is otherwise plain: the same error as
    /// the strict decoder, and it names the field.
    @Test(arguments: [
        ("token", #""abc""#), ("token", #""\#(String(repeating: "g", count: 64))""#), ("token", #""\#(String(repeating: "a", count: 65))""#),
        ("token", #""\#(String(repeating: "ab", count: 101))""#), ("token", #""""#),
        ("tags", #"["\#(String(repeating: "t", count: 65))"]"#), ("tags", #"[""]"#), ("tags", "[" + Array(repeating: #""t""#, count: 101).joined(separator: ",") + "]"),
        ("externalUserId", #""""#), ("externalUserId", #""\#(String(repeating: "u", count: 257))""#),
        ("locale", #""e""#), ("locale", #""1en""#), ("locale", #""en US""#), ("locale", #""\#(String(repeating: "a", count: 36))""#),
        ("timeZone", #""""#), ("timeZone", #""\#(String(repeating: "z", count: 65))""#),
        ("timeZone", #""Mars\/Olympus_Mons""#), ("timeZone", #""europe\/paris""#), ("timeZone", #""GMT+2""#), ("timeZone", #""Europe/Paris ""#),
        ("appVersion", #""""#), ("appVersion", #""\#(String(repeating: "1", count: 65))""#),
        ("sdkVersion", #""""#), ("sdkVersion", #""\#(String(repeating: "1", count: 65))""#),
        ("previousToken", #""""#), ("previousToken", #""\#(String(repeating: "p", count: 4097))""#),
    ])
    func everyRuleGivesTheStrictPathsErrorNamingTheField(field: String, value: String) throws {
        let body = field == "token"
            ? #"{"platform":"ios","token":\#(value)}"#
            : #"{"platform":"ios","token":"\#(Self.token)","\#(field)":\#(value)}"#
        let bytes = Array(body.utf8)
        let outcome = Self.routeOutcome(bytes)
        #expect(outcome == Self.strictOutcome(bytes))
        guard case .error(400, "invalid_field", field, _) = outcome else {
            Issue.record("\(body.prefix(200)) gave \(outcome)")
            return
        }
    }

    /// Many generated bodies, plain and not, valid and not: the route's answer is always the strict
    /// decoder's. (Seconds of CPU in a debug build: on a thread of its own, so the tests that need
    /// the pool get it.)
    @Test func generatedBodiesDecodeAsTheStrictDecoderDecodesThem() async {
        let count = 5_000
        let (refused, registered, mismatch) = await offPool { () -> (Int, Int, String?) in
            var generator = BodyGenerator(seed: 0x5eed)
            var refused = 0
            var registered = 0
            for _ in 0..<count {
                let body = generator.body()
                let outcome = Self.routeOutcome(body)
                if case .registration = outcome { registered += 1 } else { refused += 1 }
                let strict = Self.strictOutcome(body)
                if outcome != strict {
                    return (refused, registered, "\(String(decoding: body, as: UTF8.self)):\n  route:  \(outcome)\n  strict: \(strict)")
                }
            }
            return (refused, registered, nil)
        }
        #expect(mismatch == nil, "\(mismatch ?? "")")
        // The mix covers both outcomes in quantity.
        #expect(refused > count / 4, "\(refused) refused")
        #expect(registered > count / 10, "\(registered) registered")
    }
}

/// Registration bodies from a seed: fields in any order, with values that are right, wrong in
/// type, wrong by a rule, escaped, or not JSON at all.
struct BodyGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

    private mutating func hex(_ count: Int, upper: Bool = false) -> String {
        String((0..<count).map { _ in Array(upper ? "0123456789ABCDEF" : "0123456789abcdef")[below(16)] })
    }

    private mutating func space() -> String {
        chance(80) ? "" : pick([" ", "\n", "\t", "\r\n", "  "])
    }

    /// A JSON string literal, usually plain, sometimes escaped or odd.
    private mutating func text(_ plain: String) -> String {
        switch below(30) {
        case 0: return "\"" + plain.replacingOccurrences(of: "/", with: "\\/") + "\\/x\""
        case 1: return "\"" + plain + "\\u00e9\\ud83d\\ude00\""
        case 2: return "\"" + plain + "é\""
        case 3: return "\"" + plain + pick(["\\n", "\\\"", "\\\\", "\\t", "\\b", "\\f", "\\r", "\\u0000", "\\u001F"]) + "\""
        case 4: return "\"" + plain + pick(["\\x", "\\ud800", "\\udc00", "\\u12", "\t", "\\"]) + "\""
        default: return "\"" + plain + "\""
        }
    }

    /// Any value of the wrong kind, or broken JSON.
    private mutating func wrongValue() -> String {
        pick(["42", "-1.5e3", "true", "false", "{}", #"{"a":1}"#, "[]", "[1]", "nul", "\"unterminated", "null"])
    }

    /// A right value for `field` usually, else one that breaks its rule.
    private mutating func value(for field: String, platform: String) -> String {
        if chance(4) { return wrongValue() }
        let right = chance(75)
        switch field {
        case "platform":
            return right || chance(50) ? "\"" + platform + "\"" : text(pick(["windows", "IOS", "", "android "]))
        case "token" where platform == "android":
            return text(right ? pick(["fcm-" + hex(24), "fcm:" + hex(140)]) : pick(["short", "has space " + hex(20), String(repeating: "x", count: 4097)]))
        case "token":
            return text(right ? pick([hex(64), hex(64, upper: true), hex(200)]) : pick([hex(63), hex(202), "not hex " + hex(60), hex(65)]))
        case "tags":
            if chance(10) { return "null" }
            let tags = (0..<(right ? below(4) : pick([1, 2, 101]))).map { _ in right ? pick(["news", "vip", "sport", "ünï"]) : pick(["", String(repeating: "t", count: 65), "ok"]) }
            return "[" + space() + tags.map { chance(97) ? text($0) : wrongValue() }.joined(separator: space() + "," + space()) + space() + "]"
        case "locale":
            return chance(10) ? "null" : text(right ? pick(["en", "fr-FR", "pt_BR", "zh-Hant-TW"]) : pick(["e", "1en", "en US", String(repeating: "a", count: 36)]))
        case "externalUserId":
            return chance(10) ? "null" : text(right ? pick(["user-42", "Ünïcode user"]) : pick(["", String(repeating: "u", count: 257)]))
        case "previousToken":
            return chance(10) ? "null" : text(right ? pick([hex(64), hex(64, upper: true)]) : pick(["", String(repeating: "p", count: 4097)]))
        case "timeZone":
            return chance(10) ? "null" : text(right ? pick(["Europe/Paris", "Asia/Kathmandu", "UTC"]) : pick(["", "Mars/Base", "europe/paris"]))
        default:
            return chance(10) ? "null" : text(right ? pick(["1.0", "Europe/Paris", "3.1 (42)"]) : pick(["", String(repeating: "v", count: 65)]))
        }
    }

    mutating func body() -> [UInt8] {
        let platform = pick(["ios", "ios", "ios", "android"])
        var fields = ["platform", "token"].filter { _ in chance(96) }
        for optional in ["externalUserId", "tags", "locale", "timeZone", "appVersion", "sdkVersion", "previousToken"] where chance(30) {
            fields.append(optional)
        }
        if chance(4) { fields.append(pick(["tgas", "Platform", "extra", "p\\u006ctform"])) }
        if chance(3), let repeated = fields.randomElement(using: &self) { fields.append(repeated) }
        // Any order.
        for index in fields.indices.reversed() where index > 0 { fields.swapAt(index, below(index + 1)) }
        let members = fields.map { space() + "\"" + $0 + "\"" + space() + ":" + space() + value(for: $0, platform: platform) + space() }
        var text = space() + "{" + members.joined(separator: ",") + "}" + space()
        switch below(40) {
        case 0: text.removeLast(min(text.count, 1 + below(5)))
        case 1: text += pick([" x", ",", "}", "{}"])
        case 2: text = "[" + text + "]"
        default: break
        }
        var bytes = Array(text.utf8)
        if chance(1), !bytes.isEmpty { bytes.insert(pick([0xff, 0xc3, 0x80]), at: below(bytes.count)) }
        return bytes
    }
}
