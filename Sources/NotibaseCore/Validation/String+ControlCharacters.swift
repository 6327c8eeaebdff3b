extension StringProtocol {
    /// Whether any character is a control character (U+0000–U+001F, U+007F–U+009F): never part
    /// of an identifier, a tag or a key, where a NUL would cut the value short in C and SQL.
    package var hasControlCharacters: Bool {
        unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }
    }
}
