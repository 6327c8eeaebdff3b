import NotibaseCore

/// The server's two signatures, each an HMAC-SHA256 under a key derived from the server's secret
/// key (never stored in the database, so a copy of the database forges neither):
///
/// - the **receipt signature** of a delivery, sent in its payload as `nb_sig`: a receipt must
///   carry it back, so the app's client key alone (which anyone can take from the app) cannot
///   report opens or taps for deliveries it never received;
/// - the **identity token** of an app's external user ID, which the app's backend asks for with
///   its server key and hands to the app at sign-in: a device is only targeted as that user when
///   it registers with the token (when the app requires it).
///
/// Both are 43 characters of unpadded base64url; the identity token has a version prefix.
package struct Signer: Sendable {
    /// Nil when OpenSSL could not derive them: nothing is signed then, and nothing verifies, which
    /// fails closed.
    private let receiptKey: HMACKey?
    private let identityKey: HMACKey?

    /// The identity token's prefix: the scheme, so it can change without ambiguity.
    package static let identityTokenPrefix = "nbid1."

    package init(secretKey: [UInt8]) {
        receiptKey = Self.derive(secretKey, "notibase/receipt-signature/1")
        identityKey = Self.derive(secretKey, "notibase/identity-token/1")
    }

    package func receiptSignature(deliveryID: String) -> String {
        Base64URL.encode(Self.mac(receiptKey, Array(deliveryID.utf8)) ?? [])
    }

    /// Whether `signature` is the one made for `deliveryID` (compared in constant time), spelled
    /// as it was made.
    package func isReceiptSignature(_ signature: String?, deliveryID: String) -> Bool {
        guard let signature, let given = Self.canonical(signature),
              let expected = Self.mac(receiptKey, Array(deliveryID.utf8)) else { return false }
        return Crypto.constantTimeEqual(given, expected)
    }

    package func identityToken(appID: String, externalUserID: String) -> String {
        Self.identityTokenPrefix + Base64URL.encode(identityMAC(appID: appID, externalUserID: externalUserID) ?? [])
    }

    /// Whether `token` is the identity token of this app's user ID (compared in constant time),
    /// spelled as it was made.
    package func isIdentityToken(_ token: String?, appID: String, externalUserID: String) -> Bool {
        guard let token, token.hasPrefix(Self.identityTokenPrefix),
              let given = Self.canonical(String(token.dropFirst(Self.identityTokenPrefix.count))),
              let expected = identityMAC(appID: appID, externalUserID: externalUserID) else { return false }
        return Crypto.constantTimeEqual(given, expected)
    }

    /// The 32 bytes `encoded` spells, when it is their one canonical spelling: 43 characters of
    /// base64url whose last one leaves its two unused bits at zero (otherwise four spellings would
    /// decode to the same bytes).
    private static func canonical(_ encoded: String) -> [UInt8]? {
        guard encoded.utf8.count == 43, let bytes = Base64URL.decode(encoded), bytes.count == 32, Base64URL.encode(bytes) == encoded else { return nil }
        return bytes
    }

    private func identityMAC(appID: String, externalUserID: String) -> [UInt8]? {
        // The two IDs are joined by a byte neither can hold (a NUL), so no other pair of IDs
        // makes the same message.
        Self.mac(identityKey, Array(appID.utf8) + [0] + Array(externalUserID.utf8))
    }

    /// The key for `purpose`: HMAC-SHA256 of its name under the node's secret, made ready for
    /// many MACs; nil when OpenSSL fails.
    private static func derive(_ secretKey: [UInt8], _ purpose: String) -> HMACKey? {
        (try? Crypto.hmacSHA256(key: secretKey, Array(purpose.utf8))).flatMap { try? Crypto.hmacKey($0) }
    }

    /// HMAC-SHA256, or nil without a key or when OpenSSL fails.
    private static func mac(_ key: HMACKey?, _ message: [UInt8]) -> [UInt8]? {
        try? key?.mac(message)
    }
}
