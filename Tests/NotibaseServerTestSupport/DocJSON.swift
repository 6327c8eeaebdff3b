import Foundation

/// JSON as the docs show it: real JSON, plus `…` (or `...`) where the page leaves something out.
/// Read from a page it is a pattern: an object shows some of the answer's fields (the answer may
/// have more), `"…"` or a bare `…` stands for any value, a string with `…` in it for any string
/// with the parts around it in that order (`"nb_server_…"`: a prefix), and an array ending in `…`
/// for at least the elements shown. An array without `…` must match element for element.
indirect enum DocJSON: Equatable, CustomStringConvertible {
    case object([(String, DocJSON)])
    case array([DocJSON])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case elided

    static func == (lhs: DocJSON, rhs: DocJSON) -> Bool { lhs.description == rhs.description }

    var description: String {
        switch self {
        case .object(let members): "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .string(let text): "\"\(text)\""
        case .number(let number): number == number.rounded() ? String(Int(number)) : String(number)
        case .bool(let value): String(value)
        case .null: "null"
        case .elided: "…"
        }
    }

    /// The value at the start of `text` (what follows it is ignored), or nil when none reads.
    static func parse(_ text: String) -> DocJSON? {
        var reader = Reader(scalars: Array(text.unicodeScalars))
        return reader.value()
    }

    /// Why `answer` does not match this pattern (the path and what differs), or nil when it does.
    func mismatch(_ answer: DocJSON, at path: String = "") -> String? {
        switch (self, answer) {
        case (.elided, _):
            return nil
        case (.string(let shown), _) where shown == "…":
            return nil
        case (.string(let shown), .string(let actual)) where shown.contains("…"):
            var rest = Substring(actual)
            let parts = shown.components(separatedBy: "…")
            guard rest.hasPrefix(parts[0]) else { return "\(path): \(answer) does not start as \(self) shows" }
            rest = rest.dropFirst(parts[0].count)
            for part in parts.dropFirst().dropLast() where !part.isEmpty {
                guard let range = rest.range(of: part) else { return "\(path): \(answer) does not hold \(part)" }
                rest = rest[range.upperBound...]
            }
            return rest.hasSuffix(parts[parts.count - 1]) ? nil : "\(path): \(answer) does not end as \(self) shows"
        case (.object(let shown), .object(let actual)):
            for (key, pattern) in shown {
                guard let value = actual.first(where: { $0.0 == key })?.1 else { return "\(path).\(key): the answer has no such field" }
                if let problem = pattern.mismatch(value, at: "\(path).\(key)") { return problem }
            }
            return nil
        case (.array(let shown), .array(let actual)):
            let open = shown.last == .elided
            let elements = open ? Array(shown.dropLast()) : shown
            guard open ? actual.count >= elements.count : actual.count == elements.count else {
                return "\(path): the answer has \(actual.count) elements, the page shows \(shown.count)"
            }
            for (offset, pattern) in elements.enumerated() {
                if let problem = pattern.mismatch(actual[offset], at: "\(path)[\(offset)]") { return problem }
            }
            return nil
        default:
            return self == answer ? nil : "\(path.isEmpty ? "the answer" : path): \(answer), the page shows \(self)"
        }
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        mutating func value() -> DocJSON? {
            skipSpace()
            guard index < scalars.count else { return nil }
            switch scalars[index] {
            case "{": return object()
            case "[": return array()
            case "\"": return string().map(DocJSON.string)
            case "…":
                index += 1
                return .elided
            case ".":
                guard index + 2 < scalars.count, scalars[index + 1] == ".", scalars[index + 2] == "." else { return nil }
                index += 3
                return .elided
            default: return literal()
            }
        }

        private mutating func object() -> DocJSON? {
            index += 1
            var members: [(String, DocJSON)] = []
            while true {
                skipSpace()
                guard index < scalars.count else { return nil }
                if scalars[index] == "}" {
                    index += 1
                    return .object(members)
                }
                if scalars[index] == "\"" {
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard index < scalars.count, scalars[index] == ":" else { return nil }
                    index += 1
                    guard let value = value() else { return nil }
                    members.append((key, value))
                } else if value() != .elided {
                    return nil
                }
                skipSpace()
                if index < scalars.count, scalars[index] == "," { index += 1 }
            }
        }

        private mutating func array() -> DocJSON? {
            index += 1
            var elements: [DocJSON] = []
            while true {
                skipSpace()
                guard index < scalars.count else { return nil }
                if scalars[index] == "]" {
                    index += 1
                    return .array(elements)
                }
                guard let element = value() else { return nil }
                elements.append(element)
                skipSpace()
                if index < scalars.count, scalars[index] == "," { index += 1 }
            }
        }

        private mutating func string() -> String? {
            let start = index
            index += 1
            var escaped = false
            while index < scalars.count {
                let scalar = scalars[index]
                index += 1
                if escaped {
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    var text = String.UnicodeScalarView()
                    text.append(contentsOf: scalars[start..<index])
                    return (try? JSONDecoder().decode(String.self, from: Data(String(text).utf8)))
                }
            }
            return nil
        }

        private mutating func literal() -> DocJSON? {
            let start = index
            while index < scalars.count, !",]} \n\t".unicodeScalars.contains(scalars[index]) { index += 1 }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[start..<index])
            switch String(text) {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            case let word: return Double(word).map(DocJSON.number)
            }
        }

        private mutating func skipSpace() {
            while index < scalars.count, " \n\t\r".unicodeScalars.contains(scalars[index]) { index += 1 }
        }
    }
}
