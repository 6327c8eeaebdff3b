import COpenSSL

/// How a TLS client checks whom it reached, the same for the HTTP/2 senders and the webhook
/// transport: the host is sent as SNI and must be a name in the peer's certificate, or an IP
/// address the certificate lists.
package enum TLSPeer {
    /// Makes the handshake on `ssl` expect `host` (a name, or an IP address without brackets).
    package static func expect(_ host: String, on ssl: OpaquePointer) {
        if host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
        } else {
            _ = notibase_ssl_set_host_name(ssl, host)
            SSL_set1_host(ssl, host)
        }
    }

    /// Where a non-blocking handshake stands.
    package enum HandshakeStep: Equatable {
        case done
        /// Call again when the socket is readable.
        case wantsRead
        /// Call again when the socket is writable.
        case wantsWrite
        /// Over: `certificate` says why the peer's certificate was refused, or is nil when the
        /// handshake failed otherwise (OpenSSL's error queue then says how).
        case failed(certificate: String?)
    }

    /// Takes the client handshake on `ssl` (its socket non-blocking) as far as it goes now.
    package static func handshake(on ssl: OpaquePointer) -> HandshakeStep {
        OpenSSLFailure.clearQueue()
        let result = SSL_connect(ssl)
        if result == 1 { return .done }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wantsRead
        case SSL_ERROR_WANT_WRITE: return .wantsWrite
        default: return .failed(certificate: certificateFailure(on: ssl))
        }
    }

    /// Why the peer's certificate was not accepted in the failed handshake on `ssl` (OpenSSL's
    /// words: untrusted, expired, another host's), or nil when the certificate was not the cause.
    package static func certificateFailure(on ssl: OpaquePointer) -> String? {
        let verify = SSL_get_verify_result(ssl)
        return verify == X509_V_OK ? nil : String(cString: X509_verify_cert_error_string(verify))
    }
}
