import Foundation
package import NotibaseSenders
import NotibaseDomain
import NotibaseStore
import NotibaseOutbound

/// Standard Webhooks signatures (standardwebhooks.com): a secret is `whsec_` and the base64 of its
/// key bytes; a request is signed over `id.timestamp.body` with HMAC-SHA256, and its
/// `webhook-signature` header lists `v1,` and the base64 signature once per secret in use, separated
/// by spaces (two while a rotated secret still signs beside the new one).
package struct WebhookSignature: Sendable {
    package static let prefix = "whsec_"

    /// A new secret: 32 random bytes.
    package static func newSecret() throws(OpenSSLFailure) -> String {
        prefix + base64(try Crypto.randomBytes(32))
    }

    /// The key bytes of a `whsec_` secret, or nil when it is not one.
    package static func key(of secret: String) -> [UInt8]? {
        guard secret.hasPrefix(prefix), let key = decodeBase64(String(secret.dropFirst(prefix.count))), !key.isEmpty else { return nil }
        return key
    }

    /// The `webhook-signature` header for `body` sent as `id` at `timestamp` (seconds since 1970),
    /// signed with each of `keys` in turn.
    package static func header(id: String, timestamp: Int, body: [UInt8], keys: [[UInt8]]) throws(OpenSSLFailure) -> String {
        var signed = Array("\(id).\(timestamp).".utf8)
        signed.append(contentsOf: body)
        var signatures: [String] = []
        for key in keys {
            signatures.append("v1," + base64(try Crypto.hmacSHA256(key: key, signed)))
        }
        return signatures.joined(separator: " ")
    }

    package static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// Standard padded base64; nil on anything else.
    package static func decodeBase64(_ text: String) -> [UInt8]? { Data(base64Encoded: text).map { [UInt8]($0) } }
}
