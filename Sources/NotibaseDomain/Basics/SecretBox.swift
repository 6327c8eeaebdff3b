import COpenSSL
package import NotibaseSenders

/// Encrypts provider credentials at rest with AES-256-GCM under the server's secret key.
///
/// A sealed value is `version (1) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`; the associated data binds
/// it to its app and provider, so a sealed value copied to another row does not open.
package struct SecretBox: Sendable {
    private let key: [UInt8]

    /// A box for a 32-byte key.
    package init(key: [UInt8]) throws {
        guard key.count == 32 else { throw ConfigurationError("the secret key must be 32 bytes (44 base64 characters), not \(key.count) bytes") }
        self.key = key
    }

    package func seal(_ plaintext: [UInt8], context: String) throws(OpenSSLFailure) -> [UInt8] {
        let nonce = try Crypto.randomBytes(12)
        let aad = Array(context.utf8)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: 16)
        try withContext("AES-256-GCM encryption") { context in
            var length: Int32 = 0
            return EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1
                && EVP_EncryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1
                && EVP_EncryptUpdate(context, &ciphertext, &length, plaintext, Int32(plaintext.count)) == 1
                && ciphertext.withUnsafeMutableBufferPointer({ EVP_EncryptFinal_ex(context, $0.baseAddress.map { $0 + Int(length) }, &length) }) == 1
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1
        }
        return [1] + nonce + ciphertext + tag
    }

    /// The plaintext; nil when `sealed` is not a sealed value at all, and a failure of "AES-256-GCM
    /// decryption" when it was not sealed with this key and context (or was changed since).
    package func open(_ sealed: [UInt8], context: String) throws(OpenSSLFailure) -> [UInt8]? {
        guard sealed.count >= 1 + 12 + 16, sealed[0] == 1 else { return nil }
        let nonce = Array(sealed[1..<13])
        let ciphertext = Array(sealed[13..<(sealed.count - 16)])
        var tag = Array(sealed[(sealed.count - 16)...])
        let aad = Array(context.utf8)
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        try withContext("AES-256-GCM decryption") { context in
            var length: Int32 = 0
            var tail = [UInt8](repeating: 0, count: 16)
            return EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1
                && EVP_DecryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1
                && EVP_DecryptUpdate(context, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, &tag) == 1
                && EVP_DecryptFinal_ex(context, &tail, &length) == 1
        }
        return plaintext
    }

    /// Runs the steps of `operation` with a new cipher context; throws when one of them fails.
    private func withContext(_ operation: String, _ steps: (OpaquePointer) -> Bool) throws(OpenSSLFailure) {
        OpenSSLFailure.clearQueue()
        let context = try OpenSSLFailure.check(EVP_CIPHER_CTX_new(), operation)
        defer { EVP_CIPHER_CTX_free(context) }
        guard steps(context) else { throw OpenSSLFailure(operation) }
    }
}
