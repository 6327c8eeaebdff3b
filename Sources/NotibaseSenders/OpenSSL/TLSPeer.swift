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

    /// Why the peer's certificate was not accepted in the failed handshake on `ssl` (OpenSSL's
    /// words: untrusted, expired, another host's), or nil when the certificate was not the cause.
    package static func certificateFailure(on ssl: OpaquePointer) -> String? {
        let verify = SSL_get_verify_result(ssl)
        return verify == X509_V_OK ? nil : String(cString: X509_verify_cert_error_string(verify))
    }
}
