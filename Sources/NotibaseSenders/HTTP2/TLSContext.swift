import COpenSSL

/// An OpenSSL client context for HTTP/2: TLS 1.2+, ALPN `h2`, peer verification against the system's
/// or a given CA file, and the client certificate when there is one. Owned by one event loop.
final class TLSContext {
    let context: OpaquePointer

    init(configuration: HTTP2ClientConfiguration) throws(TransportError) {
        OpenSSLFailure.clearQueue()
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Self.error("could not create a TLS context") }
        self.context = context
        notibase_ssl_ctx_set_nonblocking_modes(context)
        guard notibase_ssl_ctx_require_tls12(context) == 1 else { throw Self.error("could not require TLS 1.2 or later") }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let alpn: [UInt8] = [2, UInt8(ascii: "h"), UInt8(ascii: "2")]
        guard SSL_CTX_set_alpn_protos(context, alpn, UInt32(alpn.count)) == 0 else { throw Self.error("could not offer ALPN h2") }
        if let caFile = configuration.caFile {
            guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else { throw Self.error("could not read the CA file \(caFile)") }
        } else {
            SSL_CTX_set_default_verify_paths(context)
        }
        if let certificate = configuration.clientCertificate {
            try useClientCertificate(certificate)
        }
    }

    deinit { SSL_CTX_free(context) }

    private func useClientCertificate(_ certificate: HTTP2ClientConfiguration.ClientCertificate) throws(TransportError) {
        let x509 = readMemoryBIO(certificate.certificatePEM) { PEM_read_bio_X509($0, nil, nil, nil) }
        guard let x509 else { throw Self.error("the client certificate is not a readable PEM certificate", cause: .clientCertificate) }
        defer { X509_free(x509) }
        guard SSL_CTX_use_certificate(context, x509) == 1 else { throw Self.error("the client certificate was refused", cause: .clientCertificate) }
        guard let key = try? SigningKey.anyKey(pem: certificate.privateKeyPEM) else {
            throw Self.error("the client certificate's key is not a readable PEM key", cause: .clientCertificate)
        }
        guard key.use({ SSL_CTX_use_PrivateKey(context, $0) }) == 1, SSL_CTX_check_private_key(context) == 1 else {
            throw Self.error("the client certificate's key does not match it", cause: .clientCertificate)
        }
    }

    /// A TLS error, with what OpenSSL queued for it: by default of the handshake;
    /// `.clientCertificate` for our own certificate.
    static func error(_ message: String, cause: TransportError.Cause = .tlsHandshake) -> TransportError {
        let reason = OpenSSLFailure(message).queueText.map { " (OpenSSL: \($0))" } ?? ""
        return TransportError(kind: .tls, cause: cause, message: message + reason)
    }
}
