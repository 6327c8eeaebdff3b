#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The identifier Notibase gives a Live Activity: the backend chooses it or Notibase makes one.
/// It travels in the activity's attributes under ``attributesKey`` (so the app, and the SDK that
/// reports the activity's tokens, know which activity they run) and in every Android push.
public struct LiveActivityID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The identifier: 1 to 64 characters of `A-Z`, `a-z`, `0-9`, `.`, `_`, `:` and `-`.
    public let rawValue: String

    /// The identifier, when `rawValue` has the form; nil otherwise (``problem(with:)`` says why).
    public init?(rawValue: String) {
        guard Self.problem(with: rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// A new identifier: a lowercase UUID.
    public static func random() -> LiveActivityID {
        LiveActivityID(uncheckedRawValue: UUID().uuidString.lowercased())
    }

    private init(uncheckedRawValue: String) {
        rawValue = uncheckedRawValue
    }

    /// The key of the activity ID in a push-to-start's `attributes` (the iOS SDK's attributes
    /// protocol requires `var notibaseActivityID: String`, which synthesized Codable reads from it).
    public static let attributesKey = "notibaseActivityID"
    /// The longest identifier.
    public static let maximumLength = 64

    /// What is wrong with `text` as an activity ID, or nil when it is one.
    public static func problem(with text: String) -> String? {
        if text.isEmpty { return "the activity ID is empty" }
        if text.utf8.count > maximumLength {
            return "the activity ID has \(text.utf8.count) characters; at most \(maximumLength)"
        }
        let allowed = text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                || [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-")].contains(byte)
        }
        return allowed ? nil : "an activity ID holds only A-Z, a-z, 0-9, '.', '_', ':' and '-'"
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let problem = Self.problem(with: text) {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: problem)
        }
        self.init(uncheckedRawValue: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
