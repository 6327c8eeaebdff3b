/// A key that could not be read or used for signing. The description never contains key material.
struct SigningError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Equatable {
        case unreadableKey
        case wrongKeyType(expected: String)
        case signingFailed(step: String)
    }

    private let kind: Kind
    /// What OpenSSL said, when the failure was its own (a library message such as "bad base64
    /// decode").
    let library: OpenSSLFailure?

    static func unreadableKey(_ library: OpenSSLFailure?) -> SigningError {
        SigningError(kind: .unreadableKey, library: library)
    }

    static func wrongKeyType(expected: String) -> SigningError {
        SigningError(kind: .wrongKeyType(expected: expected), library: nil)
    }

    static func signingFailed(step: String, _ library: OpenSSLFailure?) -> SigningError {
        SigningError(kind: .signingFailed(step: step), library: library)
    }

    var description: String {
        let reason = library?.queueText.map { " (OpenSSL: \($0))" } ?? ""
        switch kind {
        case .unreadableKey:
            return "The private key is not a readable PEM key; paste the whole file, including the BEGIN and END lines" + reason
        case .wrongKeyType(let expected):
            return "The private key is not \(expected); check that the right key file was uploaded" + reason
        case .signingFailed(let step):
            return "Signing failed at \(step)" + reason
        }
    }
}
