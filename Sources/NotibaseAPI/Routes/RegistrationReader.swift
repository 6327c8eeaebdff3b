import Foundation
package import NotibaseCore
import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// Reads registration bodies byte by byte, the single route's and the batch's: the one JSON reader
/// of `POST /v1/devices` and `POST /v1/devices/batch` (docs/decisions/0038). It answers what the
/// strict `Codable` decoder answered before it, in the same order: a repeated field when it is
/// read, a document that is not JSON (a missing quote, comma or bracket, nesting deeper than 512,
/// bytes after it) once it is met, and only then, the whole body read, a field name that is not
/// valid text, an unknown field, the fields in their declared order (missing, null, the wrong
/// type, an unknown platform, a string that is not valid: a bad escape, a lone surrogate, a control
/// character, invalid UTF-8) and each registration's rules. Like `JSONDecoder`, it looks into a
/// string only when it needs its value, and takes a UTF-8 byte order mark, UTF-16 or UTF-32
/// bodies, one trailing comma in an object or an array, and a number as any run of digits, signs,
/// points and exponents (a number is never a registration's value).
package struct RegistrationReader {
    private typealias Key = DeviceRegistrationRequest.CodingKeys

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The fields of one registration, or what is wrong with them.
    package static func registration(in body: [UInt8]) throws -> DeviceRegistrationRequest {
        try read(body) { reader in
            reader.skipSpace()
            guard reader.peek(UInt8(ascii: "{")) else { throw try reader.notAnObject(at: "") }
            let entry = try reader.object(path: "", depth: 1)
            try reader.end()
            return try entry.fields(at: "")
        }
    }

    /// Each registration of a batch (`{"devices": [...]}`) as `each` makes it from its fields and
    /// its path (`devices[3]`), or the first thing wrong: `each` runs in order once the whole body
    /// is read, so a registration's own rules are checked before the next one is looked at.
    package static func batch<T>(in body: [UInt8], _ each: (DeviceRegistrationRequest, String) throws -> T) throws -> [T] {
        try read(body) { reader in
            try reader.batch(each)
        }
    }

    private static func read<T>(_ body: [UInt8], _ read: (inout RegistrationReader) throws -> T) throws -> T {
        do {
            let utf8 = try Self.utf8(body)
            return try (utf8 ?? body).withUnsafeBufferPointer { buffer in
                var reader = RegistrationReader(bytes: buffer)
                if buffer.starts(with: [0xef, 0xbb, 0xbf]) { reader.index = 3 }
                return try read(&reader)
            }
        } catch let error as APIError where error.code == malformed.code {
            // A body that is not JSON may still repeat a field where its brackets and quotes seem to
            // close: every route's scan for repeated fields runs before its decoder, and names it.
            if let field = DuplicateKeyScanner.firstDuplicate(in: body) { throw APIError.duplicate(field) }
            throw error
        }
    }

    // MARK: Registrations

    /// A registration object as read: its fields, and the first problem in the order the strict
    /// decoder reported them (an unknown field, then the fields in their declared order).
    private struct Entry {
        package var fields = DeviceRegistrationRequest(platform: .ios, token: "")
        /// The fields present, a bit each at their position in `Key.allCases`.
        package var seen = 0
        package var problem: (rank: Int, problem: DecodingProblem)?
        package var unknownNames: Set<String> = []

        /// Keeps `problem` unless one that is reported before it is already there (rank -3 for a
        /// name that is not valid text, -2 for a batch's element that is not an object, -1 for an
        /// unknown field, else the field's position).
        package mutating func note(_ rank: Int, _ problem: DecodingProblem) {
            if self.problem.map({ rank < $0.rank }) ?? true { self.problem = (rank, problem) }
        }

        package func fields(at path: String) throws -> DeviceRegistrationRequest {
            for key in [Key.platform, .token] where seen & RegistrationReader.bit(key) == 0 {
                if (problem?.rank ?? .max) > RegistrationReader.rank(key) {
                    throw APIError.invalid(DecodingProblem(field: join(path, key.stringValue), message: "is required", kind: .missingField))
                }
            }
            if let problem { throw APIError.invalid(problem.problem) }
            return fields
        }
    }

    private static let keys = Key.allCases
    /// The field names as bytes, in the order of `keys`.
    private static let names: [[UInt8]] = keys.map { Array($0.stringValue.utf8) }

    private static func rank(_ key: Key) -> Int { keys.firstIndex(of: key)! }
    private static func bit(_ key: Key) -> Int { 1 << rank(key) }

    /// The registration object at `{`, `path` its place in the document ("" for a single body).
    private mutating func object(path: String, depth: Int) throws -> Entry {
        var entry = Entry()
        try members(depth: depth) { reader in
            switch try reader.name() {
            case .known(let position):
                let key = Self.keys[position]
                guard entry.seen & 1 << position == 0 else { throw APIError.duplicate(join(path, key.stringValue)) }
                entry.seen |= 1 << position
                try reader.colon()
                try reader.value(of: key, into: &entry, path: path, depth: depth + 1)
            case .unknown(let name):
                guard entry.unknownNames.insert(name).inserted else { throw APIError.duplicate(canonical(join(path, name))) }
                entry.note(-1, .unknownField(name, at: join(path, name), known: Self.keys.map(\.stringValue)))
                try reader.colon()
                _ = try reader.skipValue(path: join(path, name), depth: depth + 1)
            case .invalid:
                // JSONDecoder decoded an object's names before looking at any of its fields.
                entry.note(-3, .malformedJSON)
                try reader.colon()
                _ = try reader.skipValue(path: path, depth: depth + 1)
            }
        }
        return entry
    }

    /// A known field's value.
    private mutating func value(of key: Key, into entry: inout Entry, path: String, depth: Int) throws {
        func field() -> String { join(path, key.stringValue) }
        let rank = Self.rank(key)
        switch key {
        case .tags:
            if takeNull() { return }
            guard peek(UInt8(ascii: "[")) else {
                entry.note(rank, DecodingProblem(field: field(), message: try skipValue(path: field(), depth: depth).expected("an array")))
                return
            }
            var tags: [String] = []
            try elements(depth: depth) { reader, position in
                if reader.peek(UInt8(ascii: "\"")) {
                    if let tag = try reader.string() { tags.append(tag) } else { entry.note(rank, .malformedJSON) }
                } else {
                    let element = field() + "[\(position)]"
                    entry.note(rank, DecodingProblem(field: element, message: try reader.skipValue(path: element, depth: depth + 1).expected("a string")))
                }
            }
            entry.fields.tags = tags
        default:
            guard peek(UInt8(ascii: "\"")) else {
                let kind = try skipValue(path: field(), depth: depth)
                if kind != .null || key == .platform || key == .token { entry.note(rank, DecodingProblem(field: field(), message: kind.expected("a string"))) }
                return
            }
            guard let text = try string() else {
                entry.note(rank, .malformedJSON)
                return
            }
            switch key {
            case .platform:
                if let platform = Platform(rawValue: text) {
                    entry.fields.platform = platform
                } else {
                    entry.note(rank, DecodingProblem(field: field(), message: "Cannot initialize Platform from invalid String value \(text)"))
                }
            case .token: entry.fields.token = text
            case .externalUserId: entry.fields.externalUserId = text
            case .externalUserIdToken: entry.fields.externalUserIdToken = text
            case .locale: entry.fields.locale = text
            case .timeZone: entry.fields.timeZone = text
            case .appVersion: entry.fields.appVersion = text
            case .sdkVersion: entry.fields.sdkVersion = text
            case .previousToken: entry.fields.previousToken = text
            case .apnsEnvironment: entry.fields.apnsEnvironment = text
            case .tags: break
            }
        }
    }

    /// `{"devices": [registration, ...]}`.
    private mutating func batch<T>(_ each: (DeviceRegistrationRequest, String) throws -> T) throws -> [T] {
        skipSpace()
        guard peek(UInt8(ascii: "{")) else { throw try notAnObject(at: "") }
        var entries: [Entry]?
        var devicesProblem: DecodingProblem?
        var unknown: DecodingProblem?
        var unknownNames: Set<String> = []
        var invalidName = false
        try members(depth: 1) { reader in
            guard let name = try reader.string() else {
                invalidName = true
                try reader.colon()
                _ = try reader.skipValue(path: "", depth: 2)
                return
            }
            if name == "devices" {
                guard entries == nil, devicesProblem == nil else { throw APIError.duplicate(name) }
                try reader.colon()
                guard reader.peek(UInt8(ascii: "[")) else {
                    devicesProblem = DecodingProblem(field: name, message: try reader.skipValue(path: name, depth: 2).expected("an array"))
                    return
                }
                var devices: [Entry] = []
                try reader.elements(depth: 2) { reader, position in
                    let path = "devices[\(position)]"
                    if reader.peek(UInt8(ascii: "{")) {
                        devices.append(try reader.object(path: path, depth: 3))
                    } else {
                        var entry = Entry()
                        entry.note(-2, DecodingProblem(field: path, message: try reader.skipValue(path: path, depth: 3).expected("an object")))
                        devices.append(entry)
                    }
                }
                entries = devices
            } else {
                guard unknownNames.insert(name).inserted else { throw APIError.duplicate(canonical(name)) }
                if unknown == nil { unknown = .unknownField(name, at: name, known: ["devices"]) }
                try reader.colon()
                _ = try reader.skipValue(path: name, depth: 2)
            }
        }
        try end()
        if invalidName { throw Self.malformed }
        if let problem = unknown ?? devicesProblem { throw APIError.invalid(problem) }
        guard let entries else { throw APIError.invalid(DecodingProblem(field: "devices", message: "is required", kind: .missingField)) }
        let devices = try entries.enumerated().map { position, entry in
            let path = "devices[\(position)]"
            return try each(try entry.fields(at: path), path)
        }
        guard (1...10_000).contains(devices.count) else { throw APIError.invalid("devices", "must hold from 1 to 10000 devices") }
        return devices
    }

    // MARK: Structure

    /// What a skipped value was, for the message that says what was expected instead.
    private enum Kind {
        case null, other

        package func expected(_ what: String) -> String {
            self == .null ? "expected \(what), found null" : "expected \(what)"
        }
    }

    /// The answer to a body that is JSON but not an object.
    private mutating func notAnObject(at path: String) throws -> APIError {
        let kind = try skipValue(path: path, depth: 1)
        try end()
        return APIError.invalid(DecodingProblem(field: path, message: kind.expected("an object")))
    }

    /// The members of the object at `{`, each read by `member` from its name on; one trailing comma
    /// is taken, as `JSONDecoder` takes it.
    private mutating func members(depth: Int, _ member: (inout RegistrationReader) throws -> Void) throws {
        guard depth <= DuplicateKeyScanner.maxDepth else { throw Self.malformed }
        index += 1
        skipSpace()
        if take(UInt8(ascii: "}")) { return }
        while true {
            guard peek(UInt8(ascii: "\"")) else { throw Self.malformed }
            try member(&self)
            skipSpace()
            guard take(UInt8(ascii: ",")) else { break }
            skipSpace()
            if take(UInt8(ascii: "}")) { return }
        }
        guard take(UInt8(ascii: "}")) else { throw Self.malformed }
    }

    /// The elements of the array at `[`, each read by `element` with its position.
    private mutating func elements(depth: Int, _ element: (inout RegistrationReader, Int) throws -> Void) throws {
        guard depth <= DuplicateKeyScanner.maxDepth else { throw Self.malformed }
        index += 1
        skipSpace()
        if take(UInt8(ascii: "]")) { return }
        var position = 0
        while true {
            try element(&self, position)
            position += 1
            skipSpace()
            guard take(UInt8(ascii: ",")) else { break }
            skipSpace()
            if take(UInt8(ascii: "]")) { return }
        }
        guard take(UInt8(ascii: "]")) else { throw Self.malformed }
    }

    /// Any value, checked as JSON (its objects' fields once each) and skipped.
    private mutating func skipValue(path: String, depth: Int) throws -> Kind {
        guard index < bytes.count else { throw Self.malformed }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "{"):
            var names: Set<String> = []
            try members(depth: depth) { reader in
                // Names no field is read from: JSONDecoder never decoded them, only compared them.
                let name = try reader.string()
                if let name, !names.insert(name).inserted { throw APIError.duplicate(canonical(join(path, name))) }
                try reader.colon()
                _ = try reader.skipValue(path: join(path, name ?? ""), depth: depth + 1)
            }
        case UInt8(ascii: "["):
            try elements(depth: depth) { reader, position in
                _ = try reader.skipValue(path: path + "[\(position)]", depth: depth + 1)
            }
        case UInt8(ascii: "n"):
            guard takeNull() else { throw Self.malformed }
            return .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            guard take(Array("true".utf8)) || take(Array("false".utf8)) else { throw Self.malformed }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // JSONDecoder takes any such run as a number and checks it only when it decodes one.
            while index < bytes.count, Self.numberBytes.contains(bytes[index]) { index += 1 }
        default:
            throw Self.malformed
        }
        return .other
    }

    private static let numberBytes = Set("0123456789+-.eE".utf8)

    /// Only whitespace is left.
    private mutating func end() throws {
        skipSpace()
        guard index == bytes.count else { throw Self.malformed }
    }

    private mutating func colon() throws {
        skipSpace()
        guard take(UInt8(ascii: ":")) else { throw Self.malformed }
        skipSpace()
    }

    package static let malformed = APIError.invalid(.malformedJSON)

    // MARK: Tokens

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0a || bytes[index] == 0x0d || bytes[index] == 0x09 {
            index += 1
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek(byte) else { return false }
        index += 1
        return true
    }

    private mutating func take(_ word: [UInt8]) -> Bool {
        guard bytes.count - index >= word.count, bytes[index..<(index + word.count)].elementsEqual(word) else { return false }
        index += word.count
        return true
    }

    private mutating func takeNull() -> Bool {
        guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
              bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l") else { return false }
        index += 4
        return true
    }

    /// A field name: what JSONDecoder compared to the known fields' names.
    private enum Name {
        case known(Int)
        case unknown(String)
        /// Not valid text (a bad escape, a lone surrogate, a control character, invalid UTF-8).
        case invalid
    }

    /// The name at `"`, past its closing quote (a known one written without escapes is not
    /// decoded).
    private mutating func name() throws -> Name {
        let start = index
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\""),
           let position = Self.names.firstIndex(where: { $0.elementsEqual(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index])) }) {
            index += 1
            return .known(position)
        }
        index = start
        guard let name = try string() else { return .invalid }
        return Self.names.firstIndex { $0.elementsEqual(name.utf8) }.map(Name.known) ?? .unknown(name)
    }

    /// The string at `"`, read to its closing quote as JSONDecoder's first pass read it (a
    /// backslash takes the byte after it, `\u` the four after it; the end of the body before the
    /// quote is malformed), and its value: UTF-8 with JSON's escapes decoded, or nil when that is
    /// not valid (a bad escape, a lone surrogate, a control character, invalid UTF-8), which
    /// JSONDecoder found only when it decoded the string.
    private mutating func string() throws -> String? {
        index += 1
        let start = index
        var plain = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if plain { return String(decoding: content, as: UTF8.self) }
                return content.contains { $0 < 0x20 } ? nil : String(validating: content, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                index = start
                return try escapedString()
            }
            if byte < 0x20 || byte >= 0x80 { plain = false }
            index += 1
        }
        throw Self.malformed
    }

    /// The rest of a string that has escapes, from its first character.
    private mutating func escapedString() throws -> String? {
        var content: [UInt8] = []
        var valid = true
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return valid ? String(validating: content, as: UTF8.self) : nil
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw Self.malformed }
                let escape = bytes[index]
                index += 1
                if escape == UInt8(ascii: "u") {
                    if let scalar = try unicodeEscape() { content.append(contentsOf: String(scalar).utf8) } else { valid = false }
                } else if let byte = DuplicateKeyScanner.shortEscape(escape) {
                    content.append(byte)
                } else {
                    valid = false
                }
            default:
                if byte < 0x20 { valid = false }
                content.append(byte)
            }
        }
        throw Self.malformed
    }

    /// The scalar of `\uXXXX` (after the `u`), joining a surrogate pair; nil for what is not hex
    /// or a lone surrogate.
    private mutating func unicodeEscape() throws -> Unicode.Scalar? {
        guard let unit = try hex4() else { return nil }
        guard (0xd800..<0xdc00).contains(unit) else { return Unicode.Scalar(unit) }
        guard take(Array("\\u".utf8)) else { return nil }
        guard let low = try hex4(), (0xdc00..<0xe000).contains(low) else { return nil }
        return Unicode.Scalar(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00))
    }

    /// The four bytes after `\u` (malformed when the body ends first), as hex.
    private mutating func hex4() throws -> UInt32? {
        guard bytes.count - index >= 4 else { throw Self.malformed }
        var value: UInt32 = 0
        var valid = true
        for _ in 0..<4 {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(byte - UInt8(ascii: "A") + 10)
            default: valid = false
            }
            index += 1
        }
        return valid ? value : nil
    }
}

/// `path.name`, or `name` at the top.
private func join(_ path: String, _ name: String) -> String {
    path.isEmpty ? name : path + "." + name
}

/// A field's path as the duplicate answer writes it: canonically composed, as names compare.
private func canonical(_ path: String) -> String {
    path.precomposedStringWithCanonicalMapping
}
