import NotibaseCore

extension DeviceRegistrationRequest {
    /// The fields of a plain registration body, read by hand (the registration route's fast path),
    /// or nil for anything else: then the strict decoder reads it and explains what is wrong.
    ///
    /// Plain means one JSON object with known field names, each at most once, unescaped; string
    /// values (escapes allowed) or `null`; `tags` an array of strings or `null`; `platform` and
    /// `token` present and `platform` known. For such a body the result is what the strict decoder
    /// gives, so validation and its errors are shared. Invalid JSON, a number, an unknown field, a
    /// duplicate or invalid UTF-8 are not plain.
    init?(plainJSON bytes: [UInt8]) {
        guard let fields = bytes.withUnsafeBufferPointer({ buffer in
            var reader = PlainJSONReader(bytes: buffer)
            return reader.registration()
        }) else { return nil }
        self = fields
    }
}

/// Reads a registration body byte by byte; every method returns nil (or false) for anything that
/// is not plain, never an error.
private struct PlainJSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private typealias Key = RegistrationBody.Fields.CodingKeys
    private static let keys = Key.allCases
    /// The field names as bytes, in the order of `keys`.
    private static let names: [[UInt8]] = keys.map { Array($0.stringValue.utf8) }
    /// The bits of the fields every registration has.
    private static let required = 1 << keys.firstIndex(of: .platform)! | 1 << keys.firstIndex(of: .token)!

    mutating func registration() -> RegistrationBody.Fields? {
        var fields = RegistrationBody.Fields(platform: .ios, token: "")
        var seen = 0
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipSpace()
                guard let position = fieldName(), seen & (1 << position) == 0 else { return nil }
                seen |= 1 << position
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                let key = Self.keys[position]
                switch key {
                case .platform:
                    guard let text = string(), let platform = Platform(rawValue: text) else { return nil }
                    fields.platform = platform
                case .token:
                    guard let text = string() else { return nil }
                    fields.token = text
                case .tags:
                    if !takeNull() {
                        guard let tags = stringArray() else { return nil }
                        fields.tags = tags
                    }
                case .externalUserId, .externalUserIdToken, .locale, .timeZone, .appVersion, .sdkVersion, .previousToken, .apnsEnvironment:
                    if !takeNull() {
                        guard let text = string() else { return nil }
                        switch key {
                        case .externalUserId: fields.externalUserId = text
                        case .externalUserIdToken: fields.externalUserIdToken = text
                        case .locale: fields.locale = text
                        case .timeZone: fields.timeZone = text
                        case .appVersion: fields.appVersion = text
                        case .sdkVersion: fields.sdkVersion = text
                        case .apnsEnvironment: fields.apnsEnvironment = text
                        default: fields.previousToken = text
                        }
                    }
                }
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipSpace()
        guard index == bytes.count, seen & Self.required == Self.required else { return nil }
        return fields
    }

    // MARK: Tokens

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0a || bytes[index] == 0x0d || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func takeNull() -> Bool {
        guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
              bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l") else { return false }
        index += 4
        return true
    }

    /// The position of a known field name without escapes.
    mutating func fieldName() -> Int? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\") { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        return Self.names.firstIndex { $0.elementsEqual(name) }
    }

    /// `[` strings `]`.
    mutating func stringArray() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var values: [String] = []
        skipSpace()
        if take(UInt8(ascii: "]")) { return values }
        repeat {
            skipSpace()
            guard let value = string() else { return nil }
            values.append(value)
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? values : nil
    }

    /// A string value: UTF-8 with JSON's escapes decoded; nil for a control character, a bad
    /// escape, a lone surrogate or invalid UTF-8.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return ascii ? String(decoding: content, as: UTF8.self) : String(validating: content, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                index = start
                return escapedString()
            }
            if byte < 0x20 { return nil }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        return nil
    }

    /// The rest of a string that has escapes, from its first character.
    private mutating func escapedString() -> String? {
        var content: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: content, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): content.append(escape)
                case UInt8(ascii: "b"): content.append(0x08)
                case UInt8(ascii: "f"): content.append(0x0c)
                case UInt8(ascii: "n"): content.append(0x0a)
                case UInt8(ascii: "r"): content.append(0x0d)
                case UInt8(ascii: "t"): content.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    content.append(contentsOf: String(scalar).utf8)
                default: return nil
                }
            default:
                if byte < 0x20 { return nil }
                content.append(byte)
            }
        }
        return nil
    }

    /// The scalar of `\uXXXX` (after the `u`), joining a surrogate pair.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let unit = hex4() else { return nil }
        switch unit {
        case 0xd800..<0xdc00:
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xdc00..<0xe000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00))
        case 0xdc00..<0xe000:
            return nil
        default:
            return Unicode.Scalar(unit)
        }
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
