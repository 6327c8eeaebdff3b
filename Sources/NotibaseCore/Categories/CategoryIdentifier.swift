/// The `notibase-category/1` category identifier: the contract between the server, which puts it
/// in `aps.category`, and the device's extension, which registers a `UNNotificationCategory` under
/// it. Both derive it from the buttons alone, so they agree without talking to each other.
///
/// The specification is in `docs/category-identifiers.md`; in short:
/// canonical bytes = netstring("notibase-category/1"), then for every button in order the netstrings
/// of kind (`button` or `input`), id, text, options (canonical order, `,`-joined), icon, input
/// button title, input placeholder; identifier = `nb_` + the 64-bit FNV-1a of those bytes as 16
/// lowercase hex digits. Deep links are not part of it.
public enum CategoryIdentifier {
    /// The version tag that opens the canonical bytes.
    public static let spec = "notibase-category/1"

    /// The prefix every derived identifier starts with.
    public static let prefix = "nb_"

    /// The identifier for a list of buttons.
    public static func derive(from buttons: [Button]) -> String {
        var sink = HashSink()
        write(buttons, into: &sink)
        return prefix + sink.hasher.hexDigits
    }

    /// The canonical bytes the identifier hashes, for tests and for other implementations.
    public static func canonicalBytes(of buttons: [Button]) -> [UInt8] {
        var sink = ByteSink()
        write(buttons, into: &sink)
        return sink.bytes
    }

    /// Whether `identifier` has the shape of a derived identifier (`nb_` + 16 lowercase hex digits),
    /// as opposed to a category the app registered itself.
    public static func isDerived(_ identifier: String) -> Bool {
        // Byte by byte: the extension asks this of every registered category on each delivery.
        var identifier = identifier
        return identifier.withUTF8 { bytes in
            guard bytes.count == 19, bytes[0] == UInt8(ascii: "n"), bytes[1] == UInt8(ascii: "b"), bytes[2] == UInt8(ascii: "_")
            else { return false }
            for byte in bytes[3...] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
            return true
        }
    }

    private static func write(_ buttons: [Button], into sink: inout some CanonicalSink) {
        netstring(spec, into: &sink)
        for button in buttons {
            netstring(button.input == nil ? "button" : "input", into: &sink)
            netstring(button.id, into: &sink)
            netstring(button.text, into: &sink)
            netstring(optionsField(button.options), into: &sink)
            netstring(button.icon ?? "", into: &sink)
            netstring(button.input?.button ?? "", into: &sink)
            netstring(button.input?.placeholder ?? "", into: &sink)
        }
    }

    private static func optionsField(_ options: ButtonOptions) -> String {
        // The common cases without allocating a joined string.
        if options == .default { return "foreground" }
        if options.members.isEmpty { return "" }
        return options.canonicalOrder.map(\.rawValue).joined(separator: ",")
    }

    /// netstring(s) = decimal UTF-8 byte length, ":", the bytes, ",".
    private static func netstring(_ string: String, into sink: inout some CanonicalSink) {
        var string = string
        string.withUTF8 { bytes in
            writeDecimal(bytes.count, into: &sink)
            sink.append(UInt8(ascii: ":"))
            sink.append(contentsOf: bytes)
            sink.append(UInt8(ascii: ","))
        }
    }

    private static func writeDecimal(_ value: Int, into sink: inout some CanonicalSink) {
        if value >= 10 { writeDecimal(value / 10, into: &sink) }
        sink.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}

private protocol CanonicalSink {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

private struct HashSink: CanonicalSink {
    var hasher = FNV1a64()
    mutating func append(_ byte: UInt8) { hasher.combine(byte) }
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) { hasher.combine(contentsOf: bytes) }
}

private struct ByteSink: CanonicalSink {
    var bytes: [UInt8] = []
    mutating func append(_ byte: UInt8) { bytes.append(byte) }
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) { self.bytes.append(contentsOf: bytes) }
}
