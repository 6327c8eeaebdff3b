#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension KeyedDecodingContainer {
    /// The RFC 3339 time at `key` (``Timestamp``), nil when absent; an error naming the field and
    /// the form expected when it is not one.
    package func decodeTimestampIfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = Timestamp.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "expected \(Timestamp.expected), got \"\(text)\"")
        }
        return date
    }
}
