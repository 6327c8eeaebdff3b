import Foundation
import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// Finds a key that appears twice in one JSON object, in one pass over the bytes, before the body
/// is decoded: `JSONDecoder` keeps one of the copies silently, so `{"audience": {"deviceIds": […]},
/// "audience": {"all": true}}` would be read as one of them, and a proxy or a log as the other.
///
/// Keys compare as the decoder compares them: after escapes are decoded (`"aud\u0069ence"` is
/// `audience`), and non-ASCII keys in their canonical (NFC) form, as Swift strings compare. Only
/// the structure is followed; anything malformed (or nested deeper than the decoder accepts) ends
/// the scan without a finding, and the decoder then says what is wrong.
package struct DuplicateKeyScanner {
    /// The decoder's own nesting limit.
    package static let maxDepth = 512

    private struct Container {
        package var isObject: Bool
        /// Whether the next string is a key.
        package var expectsKey = true
        /// Where this object's keys start in `keys`, and their bytes in `scratch`.
        package var firstKey: Int
        package var firstByte: Int
        /// The last key read (for the path) and, in an array, the element's index.
        package var lastKey = -1
        package var index = 0
        /// The keys' hashes once the object has many keys, so a check stays cheap.
        package var hashes: Set<UInt64>?
    }

    private struct Key {
        package var hash: UInt64
        package var start: Int
        package var count: Int
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var stack: [Container] = []
    private var keys: [Key] = []
    /// Every open object's keys, decoded.
    private var scratch: [UInt8] = []

    /// The path of the first repeated key (`audience`, `message.buttons[0].id`), or nil.
    package static func firstDuplicate(in body: [UInt8]) -> String? {
        body.withUnsafeBufferPointer { buffer in
            var scanner = DuplicateKeyScanner(bytes: buffer)
            return scanner.scan()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func scan() -> String? {
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                if let top = stack.indices.last, stack[top].isObject, stack[top].expectsKey {
                    guard let key = readKey() else { return nil }
                    if isDuplicate(key, in: top) { return path(ending: key) }
                    stack[top].expectsKey = false
                    stack[top].lastKey = keys.count
                    keys.append(key)
                    stack[top].hashes?.insert(key.hash)
                } else {
                    guard skipString() else { return nil }
                }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard stack.count < Self.maxDepth else { return nil }
                stack.append(Container(isObject: byte == UInt8(ascii: "{"), firstKey: keys.count, firstByte: scratch.count))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let top = stack.popLast(), top.isObject == (byte == UInt8(ascii: "}")) else { return nil }
                keys.removeSubrange(top.firstKey...)
                scratch.removeSubrange(top.firstByte...)
            case UInt8(ascii: ","):
                if let top = stack.indices.last {
                    if stack[top].isObject { stack[top].expectsKey = true } else { stack[top].index += 1 }
                }
            default:
                break
            }
            position += 1
        }
        return nil
    }

    /// Reads the string at `position` into `scratch`, decoded; nil when it is malformed.
    private mutating func readKey() -> Key? {
        let start = scratch.count
        var ascii = true
        position += 1
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                if !ascii { canonicalize(from: start) }
                return Key(hash: Self.hash(scratch[start...]), start: start, count: scratch.count - start)
            }
            if byte == UInt8(ascii: "\\") {
                guard position + 1 < bytes.count else { return nil }
                let escaped = bytes[position + 1]
                position += 2
                switch escaped {
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xd800..<0xdc00).contains(scalar) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { return nil }
                        position += 2
                        guard let low = hex4(), (0xdc00..<0xe000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    if scalar >= 0x80 { ascii = false }
                    scratch.append(contentsOf: UTF8.encode(unicode)!)
                default:
                    guard let byte = Self.shortEscape(escaped) else { return nil }
                    scratch.append(byte)
                }
                continue
            }
            if byte >= 0x80 { ascii = false }
            scratch.append(byte)
            position += 1
        }
        return nil
    }

    /// The byte a JSON short escape stands for (`n` after the backslash is a line feed), or nil
    /// (`u` is not one).
    package static func shortEscape(_ escaped: UInt8) -> UInt8? {
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escaped
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0c
        case UInt8(ascii: "n"): 0x0a
        case UInt8(ascii: "r"): 0x0d
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// Four hex digits at `position`.
    private mutating func hex4() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Replaces the key from `start` with its canonical composition (how Swift strings compare).
    private mutating func canonicalize(from start: Int) {
        let text = String(decoding: scratch[start...], as: UTF8.self).precomposedStringWithCanonicalMapping
        scratch.removeSubrange(start...)
        scratch.append(contentsOf: text.utf8)
    }

    /// Skips the string at `position`; false when it does not end.
    private mutating func skipString() -> Bool {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return true
            case UInt8(ascii: "\\"):
                position += 2
            default:
                position += 1
            }
        }
        return false
    }

    private mutating func isDuplicate(_ key: Key, in top: Int) -> Bool {
        let first = stack[top].firstKey
        if keys.count - first >= 16 {
            if stack[top].hashes == nil { stack[top].hashes = Set(keys[first...].map(\.hash)) }
            if !stack[top].hashes!.contains(key.hash) { return false }
        }
        for index in first..<keys.count where keys[index].hash == key.hash && keys[index].count == key.count {
            if scratch[keys[index].start..<(keys[index].start + key.count)].elementsEqual(scratch[key.start..<(key.start + key.count)]) { return true }
        }
        return false
    }

    /// The field path to `key` in the innermost open object, as error answers write it.
    private func path(ending key: Key) -> String {
        var path = ""
        for level in stack.indices.dropLast() {
            let container = stack[level]
            if container.isObject {
                if !path.isEmpty { path += "." }
                path += text(of: keys[container.lastKey])
            } else {
                path += "[\(container.index)]"
            }
        }
        if !path.isEmpty { path += "." }
        return path + text(of: key)
    }

    private func text(of key: Key) -> String {
        String(decoding: scratch[key.start..<(key.start + key.count)], as: UTF8.self)
    }

    /// FNV-1a, 64 bits.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
