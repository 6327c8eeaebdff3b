import COpenSSL
import NotibaseSenders

/// The certificate authorities an endpoint's certificate must chain to.
enum WebhookTrust: Sendable, Equatable {
    /// OpenSSL's default store: on Debian the `ca-certificates` bundle in `/etc/ssl/certs`.
    case system
    /// The PEM certificates in this file instead (a test's own authority).
    case certificateFile(String)
}

/// An OpenSSL client context for webhook endpoints: TLS 1.3, or TLS 1.2 with ECDHE, the peer's
/// certificate verified against the trust given. Shared by every connection of a transport; OpenSSL allows
/// sessions to be made from one context on any thread once it is set up.
final class WebhookTLSContext: @unchecked Sendable {
    // @unchecked: `context` is set up in init and only read (SSL_new) after.
    let context: OpaquePointer

    init(trust: WebhookTrust) throws(OpenSSLFailure) {
        OpenSSLFailure.clearQueue()
        context = try OpenSSLFailure.check(SSL_CTX_new(TLS_client_method()), "creating a TLS context")
        notibase_ssl_ctx_set_nonblocking_modes(context)
        // An endpoint asking to renegotiate while a kept connection waits would make the next
        // request's write wait on a handshake the endpoint never finishes, and the poller's thread
        // retry it without end (decision 0045).
        notibase_ssl_ctx_refuse_renegotiation(context)
        do {
            try OpenSSLFailure.check(notibase_ssl_ctx_require_tls12(context), "requiring TLS 1.2 or later")
            // What a handshake may cost this side (decision 0036): an endpoint chooses the key
            // exchange among what is offered, and a finite-field one (TLS 1.2's DHE, TLS 1.3's
            // ffdhe groups) of its chosen size cost the webhooks' one I/O thread 0.88 s at 10,000
            // bits. Only elliptic curves are offered: TLS 1.3 (preferred, as OpenSSL always does)
            // or TLS 1.2 with ECDHE and an AEAD, on X25519, P-256 or P-384.
            try OpenSSLFailure.check(SSL_CTX_set_cipher_list(context, Self.tls12Ciphers), "choosing the TLS 1.2 cipher suites")
            try OpenSSLFailure.check(notibase_ssl_ctx_set_groups(context, Self.groups), "choosing the key-exchange groups")
            // A chain longer than this is refused before more of it is verified.
            SSL_CTX_set_verify_depth(context, 10)
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            switch trust {
            case .system:
                try OpenSSLFailure.check(SSL_CTX_set_default_verify_paths(context), "reading the system's certificate authorities")
            case .certificateFile(let path):
                try OpenSSLFailure.check(SSL_CTX_load_verify_locations(context, path, nil), "reading the certificate authorities in \(path)")
            }
        } catch {
            SSL_CTX_free(context)
            throw error
        }
    }

    deinit { SSL_CTX_free(context) }

    /// TLS 1.2's suites: ECDHE with an AEAD only (TLS 1.3's are all ECDHE-able AEADs).
    static let tls12Ciphers = "ECDHE+AESGCM:ECDHE+CHACHA20"
    /// The key-exchange groups offered, in order.
    static let groups = "X25519:P-256:P-384"
}
