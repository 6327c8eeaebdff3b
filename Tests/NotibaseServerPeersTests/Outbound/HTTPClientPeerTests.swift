import Foundation
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
@testable import NotibaseServerTestSupport
import NotibaseTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The client libcurl drives, against the webhook receiver (`Webhooks/Peers`): the address a
/// request goes to is checked again once connected, on a new connection and on a kept one; and
/// against `nghttpd`, HTTP/2 as web push will use it. In script/test's peer pass: it starts
/// processes beside the test.
@Suite(.tags(.processes)) struct HTTPClientPeerTests {
    private static func request(_ receiver: WebhookReceiver, _ path: String, admits: @escaping @Sendable (IPAddress) -> Bool) -> HTTPClient.Request {
        HTTPClient.Request(
            url: receiver.url(path), body: Array("{}".utf8), address: IPAddress("127.0.0.1")!, admits: admits, deadline: .now + .seconds(10),
            trust: .certificateFile(receiver.caFile))
    }

    /// A peer the request does not admit is sent nothing: neither on a new connection nor on the
    /// one an earlier answer left open to it.
    @Test func aPeerTheRequestDoesNotAdmitIsSentNothing() async throws {
        let receiver = try await WebhookReceiver.start()
        let refusedNew = await HTTPClient.webhooks.send(Self.request(receiver, "/alive/status/201", admits: { _ in false }))
        guard case .peerRefused(let peer) = refusedNew.outcome else { Issue.record("\(refusedNew.outcome)"); return }
        #expect(peer == IPAddress("127.0.0.1"))
        // The control: admitted, it is answered, and its connection kept.
        let admitted = await HTTPClient.webhooks.send(Self.request(receiver, "/alive/status/200", admits: { _ in true }))
        guard case .answered(let answer) = admitted.outcome else { Issue.record("\(admitted.outcome)"); return }
        #expect(answer.status == 200 && answer.body == Array("answer 200".utf8))
        let refusedKept = await HTTPClient.webhooks.send(Self.request(receiver, "/alive/status/202", admits: { $0 != IPAddress("127.0.0.1") }))
        guard case .peerRefused = refusedKept.outcome else { Issue.record("\(refusedKept.outcome)"); return }
        #expect(refusedKept.reusedConnection)
        try await waitUntil(timeout: .seconds(30)) { receiver.requests(to: "/alive/status/200").count == 1 }
        #expect(receiver.log().compactMap { $0["path"] as? String } == ["/alive/status/200"])
    }

    /// HTTP/2 over TLS (what web push needs): eight requests at once are answered on one
    /// connection, multiplexed.
    @Test func http2RequestsAtOnceShareOneConnection() async throws {
        let directory = TemporaryDirectory("notibase-h2")
        let (certificate, key, root) = (directory.path + "/cert.pem", directory.path + "/key.pem", directory.path + "/root")
        let made = try runToCompletion("/usr/bin/openssl", [
            "req", "-x509", "-nodes", "-days", "1", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost", "-keyout", key, "-out", certificate])
        try #require(made.status == 0, "\(made.output)")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "hello".write(toFile: root + "/hello", atomically: true, encoding: .utf8)
        let port = try Self.freePort()
        let server = try ChildProcess("/usr/sbin/nghttpd", ["-a", "127.0.0.1", "-d", root, String(port), key, certificate])
        defer { server.stop() }
        func get() async -> HTTPClient.Ending {
            await HTTPClient.webhooks.send(HTTPClient.Request(
                method: "GET", url: "https://localhost:\(port)/hello", address: IPAddress("127.0.0.1")!, deadline: .now + .seconds(10),
                version: .http2, trust: .certificateFile(certificate)))
        }
        // Until nghttpd listens (connections refused, then an answer, whose connection is kept).
        let listening = ContinuousClock.now + .seconds(30)
        while case .failed = await get().outcome, ContinuousClock.now < listening { try await Task.sleep(for: .milliseconds(100)) }
        let endings = await withTaskGroup(of: HTTPClient.Ending.self) { group in
            for _ in 0..<8 { group.addTask { await get() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for ending in endings {
            guard case .answered(let answer) = ending.outcome else { Issue.record("\(ending.outcome)"); continue }
            #expect(answer.status == 200 && answer.body == Array("hello".utf8))
        }
        // One connection for all eight (the first one's, or a new one): HTTP/1.1 would need eight.
        #expect(endings.filter { !$0.reusedConnection }.count <= 1, "\(endings.map(\.reusedConnection))")
    }

    /// A loopback port free now.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
