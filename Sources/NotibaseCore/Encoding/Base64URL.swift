/// Base64url without padding (RFC 4648 §5): JWT segments, API keys, cursors and signatures.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The base64url text of `bytes`, without `=` padding.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            let first = UInt32(bytes[index]) << 16
            let second = remaining == 2 ? UInt32(bytes[index + 1]) << 8 : 0
            let chunk = first | second
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            if remaining == 2 { output.append(alphabet[Int(chunk >> 6 & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64url text (padding optional), or nil when it is not base64url.
    package static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for character in text.utf8 where character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            values.append(UInt8(value))
        }
        if values.count % 4 == 1 { return nil }
        var output: [UInt8] = []
        var index = 0
        while index < values.count {
            let group = values[index..<min(index + 4, values.count)]
            var chunk: UInt32 = 0
            for (offset, value) in group.enumerated() { chunk |= UInt32(value) << (18 - 6 * UInt32(offset)) }
            output.append(UInt8(chunk >> 16 & 255))
            if group.count > 2 { output.append(UInt8(chunk >> 8 & 255)) }
            if group.count > 3 { output.append(UInt8(chunk & 255)) }
            index += 4
        }
        return output
    }
}
