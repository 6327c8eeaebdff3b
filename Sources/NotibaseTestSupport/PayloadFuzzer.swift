import Foundation

/// Generates `userInfo` dictionaries: well-formed payloads, random ones, and well-formed ones with
/// a node replaced by something random. Deterministic for a seed.
public struct PayloadFuzzer {
    private var state: UInt64

    /// A generator; the same seed gives the same payloads.
    public init(seed: UInt64) { state = seed }

    /// The next random number (SplitMix64), for generators of other inputs.
    public mutating func random() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A random number from 0 to `bound - 1`.
    public mutating func below(_ bound: Int) -> Int { Int(random() % UInt64(bound)) }

    /// The next payload.
    public mutating func next() -> [AnyHashable: Any] {
        switch below(3) {
        case 0: return wellFormed()
        case 1: return (randomValue(depth: 0) as? [AnyHashable: Any]) ?? ["aps": randomValue(depth: 1)]
        default: return mutate(wellFormed())
        }
    }

    mutating func wellFormed() -> [AnyHashable: Any] {
        let buttons: [Any] = (0..<below(13)).map { index in
            var button: [String: Any] = ["id": "b\(below(6))", "text": randomString()]
            if below(3) == 0 { button["options"] = ["foreground", "destructive", "authenticationRequired"].filter { _ in below(2) == 0 } }
            if below(4) == 0 { button["icon"] = below(2) == 0 ? "system:star" : randomString() }
            if below(5) == 0 { button["input"] = ["button": randomString(), "placeholder": randomString()] }
            if below(5) == 0 { button["url"] = "app://\(index)" }
            return button
        }
        return [
            "aps": ["alert": ["title": randomString(), "body": randomString()], "mutable-content": 1, "category": "nb_0123456789abcdef"],
            "nb_buttons": buttons, "nb_image": "https://x.test/\(below(100)).jpg", "nb_delivery": UUID().uuidString,
        ]
    }

    mutating func mutate(_ payload: [AnyHashable: Any]) -> [AnyHashable: Any] {
        var payload = payload
        let keys = Array(payload.keys)
        let key = keys[below(keys.count)]
        if below(2) == 0, var list = payload[key] as? [Any], !list.isEmpty {
            let index = below(list.count)
            if var object = list[index] as? [String: Any], !object.isEmpty, below(2) == 0 {
                let field = Array(object.keys)[below(object.count)]
                object[field] = randomValue(depth: 2)
                list[index] = object
            } else {
                list[index] = randomValue(depth: 2)
            }
            payload[key] = list
        } else if var object = payload[key] as? [String: Any], !object.isEmpty {
            let field = Array(object.keys)[below(object.count)]
            object[field] = randomValue(depth: 2)
            payload[key] = object
        } else {
            payload[key] = randomValue(depth: 1)
        }
        return payload
    }

    mutating func randomValue(depth: Int) -> Any {
        switch below(depth > 3 ? 6 : 9) {
        case 0: return randomString()
        case 1: return Int(truncatingIfNeeded: random())
        case 2: return Double(bitPattern: random())  // includes NaN and infinities
        case 3: return below(2) == 0
        case 4: return ""
        case 5: return Data((0..<below(8)).map { _ in UInt8(truncatingIfNeeded: random()) })
        case 6: return (0..<below(5)).map { _ in randomValue(depth: depth + 1) }
        case 7:
            var object: [String: Any] = [:]
            for _ in 0..<below(5) {
                object[["id", "text", "options", "icon", "input", "alert", "title", "body", randomString()][below(9)]] = randomValue(depth: depth + 1)
            }
            return object
        default:
            var object: [AnyHashable: Any] = [:]
            object[below(2) == 0 ? AnyHashable(below(10)) : AnyHashable("aps")] = randomValue(depth: depth + 1)
            object["nb_buttons"] = randomValue(depth: depth + 1)
            return object
        }
    }

    mutating func randomString() -> String {
        let pieces = ["a", "B", " ", "é", "e\u{301}", "👍🏽", "\u{0}", "\"", "\\", "\n", "com.apple.", "nb_", "…"]
        return (0..<below(6)).map { _ in pieces[below(pieces.count)] }.joined()
    }
}
