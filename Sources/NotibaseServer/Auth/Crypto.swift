import COpenSSL

/// The few cryptographic operations the server needs, all done by OpenSSL's libcrypto: random
/// bytes, SHA-256, a constant-time comparison, and AES-256-GCM. Nothing here is written by hand.
enum Crypto {
    /// `count` bytes from OpenSSL's CSPRNG.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBytes { RAND_bytes($0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(count)) }
        precondition(status == 1, "the system's random number generator failed")
        return bytes
    }

    /// The SHA-256 digest of `bytes`.
    static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let input = Array(bytes)
        input.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest
    }

    /// Whether two byte strings are equal, in time that depends only on their length.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
