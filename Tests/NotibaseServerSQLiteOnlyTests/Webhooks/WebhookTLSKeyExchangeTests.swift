import Foundation
import NotibaseSenders
import NotibaseTestSupport
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery

/// What a webhook endpoint's TLS can make this side compute (issue 43): it picks the key exchange
/// among what the client offers, and a finite-field one of its chosen size (a 10,000-bit DHE
/// modulus) took the webhooks' one I/O thread 0.88 s a handshake. The client offers only elliptic
/// curves, so an endpoint offering only finite-field groups or DHE suites fails to connect: here
/// `openssl s_server`, reached through the client libcurl drives.
@Suite(.tags(.processes)) struct WebhookTLSKeyExchangeTests {
    @Test func anEndpointOfferingOnlyAFiniteFieldGroupInTLS13IsRefused() async throws {
        let directory = TemporaryDirectory("notibase-tls-groups")
        let (certificate, key) = try Self.selfSigned(in: directory.path, key: "ec")
        #expect(try await Self.handshakes(certificate: certificate, key: key, ["-groups", "ffdhe2048"]) == false)
        // The control: the same server on a curve the client offers.
        #expect(try await Self.handshakes(certificate: certificate, key: key, ["-groups", "X25519"]) == true)
    }

    @Test func anEndpointOfferingOnlyDHESuitesInTLS12IsRefused() async throws {
        let directory = TemporaryDirectory("notibase-tls-dhe")
        let (certificate, key) = try Self.selfSigned(in: directory.path, key: "rsa:2048")
        #expect(try await Self.handshakes(certificate: certificate, key: key, ["-tls1_2", "-cipher", "DHE-RSA-AES128-GCM-SHA256"]) == false)
        // The control: the same server with an ECDHE suite.
        #expect(try await Self.handshakes(certificate: certificate, key: key, ["-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256"]) == true)
    }

    /// Whether the webhooks' client finishes a handshake with `openssl s_server` started with
    /// `options` (its `-www` page answers a GET with 200), or fails it.
    private static func handshakes(certificate: String, key: String, _ options: [String]) async throws -> Bool {
        let server = try ChildProcess(
            "/usr/bin/openssl", ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key, "-www", "-naccept", "1"] + options,
            mergesStandardError: true)
        var line = ""
        while !line.hasPrefix("ACCEPT") { line = try server.readLine(timeout: .seconds(30)) }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        let ending = await HTTPClient.webhooks.send(HTTPClient.Request(
            method: "GET", url: "https://localhost:\(port)/", address: IPAddress("127.0.0.1")!, deadline: .now + .seconds(20),
            trust: .certificateFile(certificate)))
        switch ending.outcome {
        case .answered(let answer): return answer.status == 200
        case .failed(let reason):
            #expect(reason.contains("TLS handshake"), "\(reason)")
            return false
        default:
            Issue.record("\(ending.outcome)")
            return false
        }
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
}
