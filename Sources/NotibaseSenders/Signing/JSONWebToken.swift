import FoundationEssentials
import NotibaseCore

/// Signed JSON Web Tokens (RFC 7519) in compact form: `header.claims.signature`, each base64url.
enum JSONWebToken {
    private struct Header: Encodable {
        var alg: String
        var kid: String?
        var typ: String?
    }

    /// Signs `claims` with `key`; the header names the key's algorithm and, when given, the key ID
    /// and the type.
    static func sign(claims: some Encodable, keyID: String?, type: String? = nil, with key: SigningKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = try encoder.encode(Header(alg: key.algorithm.rawValue, kid: keyID, typ: type))
        let body = try encoder.encode(claims)
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(body)
        let signature = try key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }
}
