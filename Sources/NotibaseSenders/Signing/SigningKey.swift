import COpenSSL

/// A private key that signs JWTs: an APNs `.p8` key (P-256, ES256) or a Google service account's
/// RSA key (RS256).
///
/// Owns its OpenSSL handle, which is released in `deinit`. Not `Sendable`: each token cache (an
/// actor) owns its key.
final class SigningKey {
    /// The signature algorithms Notibase uses.
    enum Algorithm: String, Sendable {
        /// ECDSA P-256 with SHA-256, raw `r‖s` signature (APNs).
        case es256 = "ES256"
        /// RSASSA-PKCS1-v1_5 with SHA-256 (Google OAuth).
        case rs256 = "RS256"
    }

    private let key: OpaquePointer
    /// The algorithm this key signs with.
    let algorithm: Algorithm

    /// Reads a PEM private key (PKCS#8 `BEGIN PRIVATE KEY`, or the traditional EC/RSA forms) and
    /// checks that it suits `algorithm`.
    init(pem: String, algorithm: Algorithm) throws {
        let parsed = try Self.readPrivateKey(pem)
        let type = EVP_PKEY_get_base_id(parsed)
        let fits = switch algorithm {
        case .es256: type == NID_X9_62_id_ecPublicKey && EVP_PKEY_get_bits(parsed) == 256
        case .rs256: type == NID_rsaEncryption && EVP_PKEY_get_bits(parsed) >= 2048
        }
        guard fits else {
            EVP_PKEY_free(parsed)
            throw SigningError.wrongKeyType(expected: algorithm == .es256 ? "a P-256 (ES256) key, like an APNs .p8 file" : "an RSA key of at least 2048 bits")
        }
        self.key = parsed
        self.algorithm = algorithm
    }

    /// Any PEM private key, for a TLS client certificate (its type is not checked here).
    static func anyKey(pem: String) throws -> SigningKey {
        let parsed = try readPrivateKey(pem)
        return SigningKey(owning: parsed, algorithm: EVP_PKEY_get_base_id(parsed) == NID_rsaEncryption ? .rs256 : .es256)
    }

    /// Parses a PEM private key; the caller owns the handle.
    private static func readPrivateKey(_ pem: String) throws(SigningError) -> OpaquePointer {
        OpenSSLFailure.clearQueue()
        let parsed = readMemoryBIO(pem) { PEM_read_bio_PrivateKey($0, nil, nil, nil) }
        guard let parsed else { throw SigningError.unreadableKey(OpenSSLFailure("reading a PEM private key")) }
        // OpenSSL's decoders queue the formats they tried even when one of them reads the key.
        OpenSSLFailure.clearQueue()
        return parsed
    }

    /// Runs `body` with the OpenSSL key handle, which must not outlive the call.
    func use<Result>(_ body: (OpaquePointer) -> Result) -> Result {
        body(key)
    }

    private init(owning key: OpaquePointer, algorithm: Algorithm) {
        self.key = key
        self.algorithm = algorithm
    }

    deinit { EVP_PKEY_free(key) }

    /// A new random key for `algorithm` (tests and benchmarks; real keys come from Apple and Google).
    static func generate(_ algorithm: Algorithm) throws -> SigningKey {
        let generated = switch algorithm {
        case .es256: notibase_generate_p256_key()
        case .rs256: notibase_generate_rsa_key(2048)
        }
        guard let generated else { throw SigningError.signingFailed(step: "key generation", OpenSSLFailure("key generation")) }
        return SigningKey(owning: generated, algorithm: algorithm)
    }

    /// Signs `message` with SHA-256; for ES256 the signature is the 64-byte `r‖s` that JWTs use.
    func sign(_ message: [UInt8]) throws -> [UInt8] {
        OpenSSLFailure.clearQueue()
        guard let context = EVP_MD_CTX_new() else { throw SigningError.signingFailed(step: "context", OpenSSLFailure("signing context")) }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw SigningError.signingFailed(step: "initialisation", OpenSSLFailure("signing (initialisation)"))
        }
        var length = 0
        guard message.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw SigningError.signingFailed(step: "sizing", OpenSSLFailure("signing (sizing)"))
        }
        var signature = [UInt8](repeating: 0, count: length)
        let status = message.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { EVP_DigestSign(context, $0.baseAddress, &length, input.baseAddress, input.count) }
        }
        guard status == 1 else { throw SigningError.signingFailed(step: "signature", OpenSSLFailure("signing (signature)")) }
        signature.removeSubrange(length...)
        return algorithm == .es256 ? try Self.rawSignature(fromDER: signature) : signature
    }

    /// Converts a DER `ECDSA-Sig-Value` into `r‖s`, each left-padded to 32 bytes.
    private static func rawSignature(fromDER der: [UInt8]) throws -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw SigningError.signingFailed(step: "DER decoding", OpenSSLFailure("signing (DER decoding)")) }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(r, buffer.baseAddress, 32) + BN_bn2binpad(s, buffer.baseAddress! + 32, 32)
        }
        guard written == 64 else { throw SigningError.signingFailed(step: "r‖s conversion", OpenSSLFailure("signing (r‖s conversion)")) }
        return raw
    }

    /// The public key, PEM (`BEGIN PUBLIC KEY`), for a peer that verifies signatures.
    func publicKeyPEM() throws -> String {
        try Self.pem { PEM_write_bio_PUBKEY($0, key) }
    }

    /// The private key as PKCS#8 PEM, the format of an APNs `.p8` file (tests and benchmarks).
    func privateKeyPEM() throws -> String {
        try Self.pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
    }

    private static func pem(_ write: (OpaquePointer) -> Int32) throws -> String {
        OpenSSLFailure.clearQueue()
        guard let bio = BIO_new(BIO_s_mem()) else { throw SigningError.signingFailed(step: "PEM output", OpenSSLFailure("PEM output")) }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw SigningError.signingFailed(step: "PEM output", OpenSSLFailure("PEM output")) }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        return String(decoding: bytes.prefix(Int(max(count, 0))), as: UTF8.self)
    }
}
