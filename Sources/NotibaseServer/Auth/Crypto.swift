import COpenSSL
import NotibaseSenders

/// The few cryptographic operations the server needs, all done by OpenSSL's libcrypto: random
/// bytes, SHA-256, HMAC-SHA256 and a constant-time comparison (AES-256-GCM is `SecretBox`'s).
/// Nothing here is written by hand. A failure of OpenSSL is thrown as an `OpenSSLFailure`; a request that meets one
/// answers 500 `internal_error`, as any failure of the server itself does.
enum Crypto {
    /// `count` bytes from OpenSSL's CSPRNG.
    static func randomBytes(_ count: Int) throws(OpenSSLFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBytes { RAND_bytes($0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(count)) }
        try OpenSSLFailure.check(status, "random bytes")
        return bytes
    }

    /// SHA-256, fetched from OpenSSL's provider once: the one-shot `SHA256()` looks it up on every
    /// call, which costs twice the hashing of a key (and keys are hashed on every request).
    // Unsafe by hand: a fetched algorithm is immutable and may be used from any thread.
    nonisolated(unsafe) private static let sha256Algorithm = EVP_MD_fetch(nil, "SHA256", nil)

    /// The SHA-256 digest of `bytes`.
    static func sha256(_ bytes: some Collection<UInt8>) throws(OpenSSLFailure) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let input = Array(bytes)
        let status = input.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, nil, sha256Algorithm, nil)
            }
        }
        try OpenSSLFailure.check(status, "SHA-256")
        return digest
    }

    // Unsafe by hand, as above.
    nonisolated(unsafe) private static let hmacAlgorithm = EVP_MAC_fetch(nil, "HMAC", nil)

    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    static func hmacSHA256(key: [UInt8], _ message: some Collection<UInt8>) throws(OpenSSLFailure) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        let input = Array(message)
        let status = key.withUnsafeBufferPointer { key in
            input.withUnsafeBufferPointer { input in
                mac.withUnsafeMutableBufferPointer { output in
                    notibase_hmac_sha256(hmacAlgorithm, key.baseAddress, key.count, input.baseAddress, input.count, output.baseAddress)
                }
            }
        }
        try OpenSSLFailure.check(status, "HMAC-SHA256")
        return mac
    }

    /// Whether two byte strings are equal, in time that depends only on their length.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
