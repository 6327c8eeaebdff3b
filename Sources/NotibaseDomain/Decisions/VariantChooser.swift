
/// Picks the language variant of a message for a device's locale: the variant for the exact
/// locale (`pt-BR`), else for its language (`pt`), else the default message (nil).
///
/// Locales compare case-insensitively, with `_` and `-` equal (`pt_BR` is `pt-BR`).
package struct VariantChooser: Sendable {
    private let variants: [String: String]

    /// A chooser for the variants' locale keys as the sender wrote them.
    package init(locales: some Sequence<String>) {
        var table: [String: String] = [:]
        for locale in locales { table[Self.normalize(locale)] = locale }
        variants = table
    }

    /// A chooser for a message's variants.
    package init(_ content: MessageContent) {
        self.init(locales: content.variants?.keys.sorted() ?? [])
    }

    /// The variant key for a device locale, or nil for the default message.
    package func variant(for locale: String?) -> String? {
        guard !variants.isEmpty, let locale else { return nil }
        let normalized = Self.normalize(locale)
        if let exact = variants[normalized] { return exact }
        if let dash = normalized.firstIndex(of: "-"), let language = variants[String(normalized[..<dash])] { return language }
        return nil
    }

    package static func normalize(_ locale: String) -> String {
        // Locales are ASCII (the API checks): lowercase and `_` → `-` byte by byte.
        String(decoding: locale.utf8.map { byte in
            byte == UInt8(ascii: "_") ? UInt8(ascii: "-") : ((0x41...0x5a).contains(byte) ? byte + 32 : byte)
        }, as: UTF8.self)
    }
}
