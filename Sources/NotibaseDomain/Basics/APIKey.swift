import Foundation
import NotibaseCore
package import NotibaseSenders

/// The kinds of key the API accepts. A key is a prefix naming its kind and 32 random bytes in
/// base64url; only its SHA-256 is stored.
package enum KeyKind: String, Sendable, Hashable, CaseIterable {
    /// Creates and manages apps.
    case admin
    /// An app's backend key: sends messages, reads logs, manages devices and credentials.
    case server
    /// The key an app ships: registers its own device and posts receipts, nothing else.
    case client

    package var prefix: String {
        switch self {
        case .admin: "nb_admin_"
        case .server: "nb_server_"
        case .client: "nb_client_"
        }
    }
}

/// Generating and hashing API keys.
package enum APIKey {
    /// A new random key of `kind`.
    package static func generate(_ kind: KeyKind) throws(OpenSSLFailure) -> String {
        kind.prefix + Base64URL.encode(try Crypto.randomBytes(32))
    }

    /// The stored form of a key.
    package static func hash(_ key: String) throws(OpenSSLFailure) -> [UInt8] {
        try Crypto.sha256(Array(key.utf8))
    }

    /// Whether `key` is a key of `kind` as strong as a generated one: its prefix, then 32 bytes in
    /// their canonical base64url (43 characters), not visibly made by hand (fewer than 16
    /// different characters: a generated key has that few once in about 10^13).
    package static func isStrong(_ key: String, _ kind: KeyKind) -> Bool {
        guard key.hasPrefix(kind.prefix) else { return false }
        let encoded = String(key.dropFirst(kind.prefix.count))
        guard encoded.utf8.count == 43, let bytes = Base64URL.decode(encoded), bytes.count == 32, Base64URL.encode(bytes) == encoded else { return false }
        return Set(encoded.utf8).count >= 16
    }

    /// The kind a presented key claims to be, from its prefix.
    package static func kind(of key: String) -> KeyKind? {
        KeyKind.allCases.first { key.hasPrefix($0.prefix) }
    }
}
