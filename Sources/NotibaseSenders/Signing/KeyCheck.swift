/// Whether an uploaded private key can sign what its provider needs, checked once at upload so a
/// bad key is refused there instead of failing every push later.
package enum KeyCheck {
    /// Nil when `pem` is a P-256 private key in PKCS#8 PEM (an APNs `.p8` file), else what is
    /// wrong with it. Never holds key material.
    package static func apnsSigningKeyProblem(_ pem: String) -> String? {
        problem(pem, .es256)
    }

    /// Nil when `pem` is an RSA private key of at least 2048 bits in PKCS#8 PEM (a Google service
    /// account's `private_key`), else what is wrong with it. Never holds key material.
    package static func serviceAccountKeyProblem(_ pem: String) -> String? {
        problem(pem, .rs256)
    }

    private static func problem(_ pem: String, _ algorithm: SigningKey.Algorithm) -> String? {
        guard pem.contains("-----BEGIN PRIVATE KEY-----"), pem.contains("-----END PRIVATE KEY-----") else {
            return "is not a PKCS#8 PEM key: paste the whole file, from -----BEGIN PRIVATE KEY----- to -----END PRIVATE KEY-----"
        }
        do {
            _ = try SigningKey(pem: pem, algorithm: algorithm)
            return nil
        } catch {
            return "cannot be used: \(error)"
        }
    }
}
