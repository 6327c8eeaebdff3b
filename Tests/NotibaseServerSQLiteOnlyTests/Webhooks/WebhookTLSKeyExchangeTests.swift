import COpenSSL
import Foundation
import NotibaseSenders
import NotibaseTestSupport
import Testing
@testable import NotibaseServer
#if canImport(Glibc)
import Glibc
@testable import NotibaseServerTestSupport
#endif

/// What a webhook endpoint's TLS can make this side compute (issue 43): it picks the key exchange
/// among what the client offers, and a finite-field one of its chosen size (a 10,000-bit DHE
/// modulus) took the webhooks' one I/O thread 0.88 s a handshake. The client offers only elliptic
/// curves, so an endpoint offering only finite-field groups or DHE suites fails to connect.
@Suite(.tags(.processes)) struct WebhookTLSKeyExchangeTests {
    @Test func anEndpointOfferingOnlyAFiniteFieldGroupInTLS13IsRefused() throws {
        let directory = TemporaryDirectory("notibase-tls-groups")
        let (certificate, key) = try Self.selfSigned(in: directory.path, key: "ec")
        let server = try Self.serverContext(certificate: certificate, key: key)
        defer { SSL_CTX_free(server) }
        #expect(notibase_ssl_ctx_set_groups(server, "ffdhe2048") == 1)
        let client = try WebhookTLSContext(trust: .certificateFile(certificate))
        #expect(Self.handshake(client: client.context, server: server) == false)
        // The control: the same server on a curve the client offers.
        #expect(notibase_ssl_ctx_set_groups(server, "X25519") == 1)
        #expect(Self.handshake(client: client.context, server: server) == true)
    }

    @Test func anEndpointOfferingOnlyDHESuitesInTLS12IsRefused() throws {
        let directory = TemporaryDirectory("notibase-tls-dhe")
        let (certificate, key) = try Self.selfSigned(in: directory.path, key: "rsa:2048")
        let server = try Self.serverContext(certificate: certificate, key: key)
        defer { SSL_CTX_free(server) }
        #expect(notibase_ssl_ctx_allow_at_most_tls12(server) == 1)
        notibase_ssl_ctx_set_dh_auto(server)
        #expect(SSL_CTX_set_cipher_list(server, "DHE-RSA-AES128-GCM-SHA256") == 1)
        let client = try WebhookTLSContext(trust: .certificateFile(certificate))
        #expect(Self.handshake(client: client.context, server: server) == false)
        // The control: the same server with an ECDHE suite.
        #expect(SSL_CTX_set_cipher_list(server, "ECDHE-RSA-AES128-GCM-SHA256") == 1)
        #expect(Self.handshake(client: client.context, server: server) == true)
    }

    /// A self-signed certificate (its own authority) and its key, made by the openssl command.
    private static func selfSigned(in directory: String, key: String) throws -> (certificate: String, key: String) {
        let (certificate, keyFile) = (directory + "/cert.pem", directory + "/key.pem")
        var arguments = ["req", "-x509", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", keyFile, "-out", certificate]
        arguments += key == "ec" ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"] : ["-newkey", key]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw OpenSSLFailure("openssl req") }
        return (certificate, keyFile)
    }

    private static func serverContext(certificate: String, key: String) throws -> OpaquePointer {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw OpenSSLFailure("SSL_CTX_new") }
        guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1, SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
            SSL_CTX_free(context)
            throw OpenSSLFailure("the test server's certificate")
        }
        return context
    }

    /// Whether a client on `client` and a server on `server` finish a handshake over a socket pair.
    private static func handshake(client: OpaquePointer, server: OpaquePointer) -> Bool {
        guard let pair = TLSSocketPair.make(client: client, server: server) else { return false }
        defer {
            let fds = (SSL_get_fd(pair.client), SSL_get_fd(pair.server))
            SSL_free(pair.client)
            SSL_free(pair.server)
            close(fds.0)
            close(fds.1)
        }
        ERR_clear_error()
        return pair.handshook
    }
}
