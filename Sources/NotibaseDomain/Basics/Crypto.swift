import COpenSSL
package import NotibaseSenders

/// The few cryptographic operations the server needs, all done by OpenSSL's libcrypto: random
/// bytes, SHA-256, HMAC-SHA256 and a constant-time comparison (AES-256-GCM is `SecretBox`'s).
/// Nothing here is written by hand. A failure of OpenSSL is thrown as an `OpenSSLFailure`; a request that meets one
/// answers 500 `internal_error`, as any failure of the server itself does.
package enum Crypto {
    /// `count` bytes from OpenSSL's CSPRNG.
    package static func randomBytes(_ count: Int) throws(OpenSSLFailure) -> [UInt8] {
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
    package static func sha256(_ bytes: some Collection<UInt8>) throws(OpenSSLFailure) -> [UInt8] {
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
    package static func hmacSHA256(key: [UInt8], _ message: some Collection<UInt8>) throws(OpenSSLFailure) -> [UInt8] {
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

    /// A key for many MACs (``HMACKey``).
    package static func hmacKey(_ key: [UInt8]) throws(OpenSSLFailure) -> HMACKey {
        let context = key.withUnsafeBufferPointer { notibase_hmac_sha256_key(hmacAlgorithm, $0.baseAddress, $0.count) }
        return HMACKey(context: try OpenSSLFailure.check(context, "HMAC-SHA256 key"))
    }

    /// Whether two byte strings are equal, in time that depends only on their length.
    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}

/// An HMAC-SHA256 key made ready once, for a key that signs many messages (a node's receipt
/// signatures, one per delivery): a MAC under it copies its keyed state instead of naming the
/// digest and keying each time, which cost five times the hashing of a delivery's ID (a seventh
/// of the workers' CPU in a large send, docs/benchmarks/2026-12-07-lab-notes.md).
// Unchecked by hand: the context is keyed once, in `Crypto.hmacKey`, and after that only copied
// (`EVP_MAC_CTX_dup` reads it), from any thread; it is freed when the last reference goes.
package final class HMACKey: @unchecked Sendable {
    private let context: OpaquePointer

    fileprivate init(context: OpaquePointer) {
        self.context = context
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// HMAC-SHA256 of `message` (32 bytes), the same as ``Crypto/hmacSHA256(key:_:)`` under this key.
    package func mac(_ message: some Collection<UInt8>) throws(OpenSSLFailure) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        let input = Array(message)
        let status = input.withUnsafeBufferPointer { input in
            mac.withUnsafeMutableBufferPointer { output in
                notibase_hmac_sha256_keyed(context, input.baseAddress, input.count, output.baseAddress)
            }
        }
        try OpenSSLFailure.check(status, "HMAC-SHA256")
        return mac
    }
}
