/// The field names of a JSON object, read without decoding its values. Used to refuse unknown
/// fields before a fast synthesized decoding (which would ignore them).
enum JSONFieldNames {
    /// The top-level field names of `bytes`, or nil when it is not a plain, well-formed object
    /// (the caller then takes the strict path, which explains what is wrong).
    static func topLevel(of bytes: [UInt8]) -> [String]? {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var names: [String] = []
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "}")) { return scanner.atEnd ? names : nil }
        repeat {
            scanner.skipSpace()
            guard let name = scanner.plainString() else { return nil }
            names.append(name)
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ":")), scanner.skipValue() else { return nil }
            scanner.skipSpace()
        } while scanner.take(UInt8(ascii: ","))
        guard scanner.take(UInt8(ascii: "}")) else { return nil }
        return scanner.atEnd ? names : nil
    }

    private struct Scanner {
        static let delimiters: Set<UInt8> = Set(",:{}[]\"".utf8)
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool {
            var copy = self
            copy.skipSpace()
            return copy.index == bytes.count
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string without escapes (a field name worth comparing); nil otherwise.
        mutating func plainString() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\") || bytes[index] < 0x20 { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// Skips any value, nested or not, checking only its bracketing and strings.
        mutating func skipValue() -> Bool {
            skipSpace()
            var depth = 0
            repeat {
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    guard index < bytes.count else { return false }
                    index += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return false }
                    depth -= 1
                    index += 1
                case UInt8(ascii: ","), UInt8(ascii: ":"):
                    guard depth > 0 else { return false }
                    index += 1
                default:
                    // A number or literal (or space inside a nested value): up to a delimiter.
                    let start = index
                    while index < bytes.count, !Self.delimiters.contains(bytes[index]) {
                        index += 1
                    }
                    if index == start { return false }
                }
            } while depth > 0
            return true
        }
    }
}
