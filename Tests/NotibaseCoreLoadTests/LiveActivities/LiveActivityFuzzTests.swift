import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseCore

/// Random Live Activity events, many of them near the 4096-byte limits and full of characters
/// JSON escapes: validation never crashes, and it agrees with rendering. An event without errors
/// renders for both platforms within the limits, whatever the per-device ids; one with errors is
/// not rendered.
@Suite("Live Activity validation fuzzing")
struct LiveActivityFuzzTests {
    static var iterations: Int {
        (Int(ProcessInfo.processInfo.environment["NOTIBASE_FUZZ_ITERATIONS"] ?? "") ?? 100_000) / 20
    }

    static let now = Date(timeIntervalSince1970: 1_796_083_200)

    @Test func validationAgreesWithRendering() throws {
        var generator = LiveActivityGenerator(seed: 0x6c69_7665_6163_7476)
        var valid = 0
        var tooLarge = 0
        for _ in 0..<Self.iterations {
            let (message, id) = generator.next(now: Self.now)
            let issues = message.validate(activityID: id, now: Self.now)
            let iosErrors = issues.filter { $0.severity == .error && $0.platform != .android }
            let androidErrors = issues.filter { $0.severity == .error && $0.platform != .ios }
            tooLarge += issues.contains { $0.code == "payload_too_large" } ? 1 : 0
            #expect(issues.allSatisfy { !$0.field.isEmpty && !$0.message.isEmpty })
            guard let activityID = LiveActivityID(rawValue: id) else {
                #expect(issues.contains { $0.field == "activityId" })
                continue
            }
            let context = DeliveryContext(
                deviceToken: "t", messageID: UUID().uuidString, deliveryID: UUID().uuidString.lowercased(),
                receiptSignature: String(repeating: "s", count: 43), now: Self.now)
            let timestamp = Int(Self.now.timeIntervalSince1970) + generator.below(1_000_000)
            do {
                let request = try LiveActivityAPNsRenderer(message: message, activityID: activityID, bundleID: "com.example.app", now: Self.now)
                    .render(context, timestamp: timestamp)
                #expect(iosErrors.isEmpty)
                #expect(request.body.count <= LiveActivityAPNsRenderer.payloadLimit)
                let aps = (try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["aps"] as? [String: Any]
                #expect(aps?["event"] as? String == message.event.rawValue)
                #expect(aps?["content-state"] is [String: Any])
                valid += 1
            } catch {
                #expect(!iosErrors.isEmpty, "not rendered for iOS without a validation error: \(error)")
            }
            do {
                let request = try LiveActivityFCMRenderer(message: message, activityID: activityID, now: Self.now).render(context, timestamp: timestamp)
                #expect(androidErrors.isEmpty)
                let data = ((try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: String]
                #expect(FCMRenderer.dataSize(of: (data ?? [:]).map { ($0.key, $0.value) }) <= FCMRenderer.payloadLimit)
            } catch {
                #expect(!androidErrors.isEmpty, "not rendered for Android without a validation error: \(error)")
            }
        }
        #expect(valid > Self.iterations / 10, "the generator makes enough valid events to test rendering")
        #expect(tooLarge > Self.iterations / 40, "the generator reaches the size limits")
    }
}

/// Random Live Activity events and activity IDs; the same seed gives the same ones.
struct LiveActivityGenerator {
    /// The random source: the payload fuzzer's.
    private var source: PayloadFuzzer

    init(seed: UInt64) { source = PayloadFuzzer(seed: seed) }

    mutating func random() -> UInt64 { source.random() }
    mutating func below(_ bound: Int) -> Int { source.below(bound) }
    mutating func chance(_ oneIn: Int) -> Bool { below(oneIn) == 0 }

    mutating func next(now: Date) -> (LiveActivityMessage, String) {
        let events: [LiveActivityEvent] = [.start, .update, .end, LiveActivityEvent(rawValue: text(3))]
        let event = chance(30) ? events[3] : events[below(3)]
        var message = LiveActivityMessage(event: event, contentState: object(depth: 0, budget: sizeBudget()))
        if event == .start || chance(15) {
            message.attributesType = chance(20) ? text(8) : "DeliveryAttributes"
            message.attributes = object(depth: 0, budget: chance(4) ? sizeBudget() : 40)
            if chance(15) { message.attributes?["notibaseActivityID"] = .string(text(4)) }
        }
        if chance(3) { message.staleDate = date(now: now) }
        if event == .end ? chance(2) : chance(20) { message.dismissalDate = date(now: now) }
        if chance(4) { message.relevanceScore = chance(20) ? .nan : Double(below(200)) }
        if chance(3) { message.alert = LiveActivityAlert(title: optionalText(), body: optionalText(), sound: chance(5) ? "default" : nil) }
        if chance(3) { message.display = LiveActivityDisplay(title: optionalText(), body: optionalText(), progress: chance(2) ? Double(below(120)) / 100 : nil) }
        if chance(2) { message.priority = chance(2) ? .high : .normal }
        let id = chance(20) ? text(below(70)) : String(repeating: "a", count: 1 + below(64))
        return (message, id)
    }

    /// Most events are small; a third aim at the limits, with text of up to 3,800 to 4,500 bytes.
    mutating func sizeBudget() -> Int {
        chance(3) ? 3_800 + below(700) : below(200)
    }

    mutating func object(depth: Int, budget: Int) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        var left = budget
        while left > 0 && members.count < 8 {
            let piece = members.isEmpty ? left : min(left, below(left + 1))
            members[text(1 + below(4))] = value(depth: depth + 1, budget: piece)
            left -= max(piece, 1)
        }
        return members
    }

    mutating func value(depth: Int, budget: Int) -> JSONValue {
        switch below(depth > 4 ? 4 : 6) {
        case 0: return .integer(Int(truncatingIfNeeded: random()))
        case 1: return .double(Double(below(1_000_000)) / 7)
        case 2: return chance(2) ? .bool(true) : .null
        case 3: return .string(text(bytes: budget))
        case 4: return .array((0..<below(4)).map { _ in value(depth: depth + 1, budget: budget / 4) })
        default: return .object(object(depth: depth, budget: budget / 2))
        }
    }

    mutating func date(now: Date) -> Date {
        switch below(6) {
        case 0: Date(timeIntervalSince1970: Double(below(1_000_000_000)))  // before 2001, mostly
        case 1: now.addingTimeInterval(Double(300 + below(800)) * 86_400)  // about a year or more away
        default: now.addingTimeInterval(Double(below(86_400)) - 3_600)
        }
    }

    mutating func optionalText() -> String? { chance(3) ? nil : text(below(6)) }

    /// Pieces that JSON escapes or that are several bytes long.
    mutating func text(_ pieces: Int) -> String {
        let choices = ["a", "B", " ", "é", "e\u{301}", "👍🏽", "\u{0}", "\u{1f}", "\"", "\\", "\n", "/", "…"]
        return (0..<pieces).map { _ in choices[below(choices.count)] }.joined()
    }

    /// Text of about `bytes` bytes of UTF-8.
    mutating func text(bytes: Int) -> String {
        var result = ""
        while result.utf8.count < bytes { result += chance(4) ? text(1) : "x" }
        return result
    }
}
