import Foundation
import Synchronization
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
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// Bodies are not buffered for whoever asks (issue 28): a request's key is checked from its head
/// before any of its body is read, and the bytes of bodies held at once are bounded, so a flood
/// of unfinished bodies neither grows the server's memory nor keeps it after.
@Suite("Bodies screened and bounded over sockets", .serialized)
struct BodyScreeningTests {
    static let megabyte = 1 << 20

    static func head(_ path: String = "/v1/messages", key: String?, length: Int = megabyte) -> String {
        "POST \(path) HTTP/1.1\r\nHost: x\r\n" + (key.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "Content-Type: application/json\r\nContent-Length: \(length)\r\n\r\n"
    }

    /// Opens `count` connections, sends each `head` and `bodyBytes` of its body, and returns each
    /// one's status (0: no answer within `timeout`); the sockets are left open for `whileOpen`.
    static func flood(port: Int, count: Int, head: String, bodyBytes: Int, timeout: TimeInterval, whileOpen: @escaping @Sendable () -> Void = {}) async -> [Int] {
        await offPool { () -> [Int] in
            let body = [UInt8](repeating: 0x20, count: bodyBytes)
            let sockets = (0..<count).compactMap { _ in FloodSocket.open(port: port) }
            defer { sockets.forEach { $0.close() } }
            for socket in sockets {
                socket.sendNow(head)
                _ = body.withUnsafeBytes { socket.sendNow($0) }
            }
            let statuses = sockets.map { $0.readStatus(timeout: timeout).status }
            whileOpen()
            return statuses
        }
    }

    @Test(arguments: [
        ("no key", nil as String?),
        ("a key no app has", "nb_server_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
        ("a wrong admin key", "nb_admin_wrong-wrong-wrong-wrong-wrong"),
    ])
    func aRequestWithoutAValidKeyIsAnswered401BeforeItsBody(_ kind: String, _ key: String?) async throws {
        let (server, directory) = try await InProcessServer.start { $0.limits.maxBodyBytes = Self.megabyte }
        // 200 requests, each with 64 KiB of its 1 MiB body sent: answered without the rest.
        let statuses = await Self.flood(port: server.port, count: 200, head: Self.head(key: key), bodyBytes: 65_536, timeout: 5)
        #expect(statuses.allSatisfy { $0 == 401 }, "\(kind): \(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
        await server.shutdown()
        _ = directory
    }

    @Test func aKeyLookedUpWhileTheConnectionWaitsStillHasItsBodyRead() async throws {
        let (server, directory) = try await InProcessServer.start()
        let client = SocketClient(port: server.port)
        let app = try await client.createApp()
        // A key the server has not seen since it started: looked up before the body is read.
        let reply = try await client.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        #expect(reply.status == 201 || reply.status == 202, "\(reply.status) \(reply.text)")
        await server.shutdown()
        _ = directory
    }

    @Test func bodiesInFlightAreBoundedAndTheirMemoryReturns() async throws {
        let (server, directory) = try await InProcessServer.start { configuration in
            configuration.limits.maxBodyBytes = Self.megabyte
            configuration.connections.bodiesInFlightBytes = 8 * Self.megabyte
        }
        let before = residentBytes()
        let peak = Mutex(0)
        // 150 requests with a valid key, each sending all but the last byte of a 1 MiB body.
        let statuses = await Self.flood(
            port: server.port, count: 150, head: Self.head("/v1/apps", key: Harness.adminKey), bodyBytes: Self.megabyte - 1, timeout: 1,
            whileOpen: { let rss = residentBytes(); peak.withLock { $0 = rss } })
        try await Task.sleep(for: .seconds(1))
        let after = residentBytes()
        let refused = statuses.filter { $0 == 503 }.count
        let megabytes = { (bytes: Int) in (bytes - before) / Self.megabyte }
        #expect(refused >= 140, "\(refused) of 150 were answered 503 at once with room for 8 bodies")
        #expect(megabytes(peak.withLock { $0 }) < 64, "memory grew by \(megabytes(peak.withLock { $0 })) MiB with 150 bodies on the way")
        #expect(megabytes(after) < 24, "memory was still \(megabytes(after)) MiB above its start a second after the flood")
        await server.shutdown()
        _ = directory
    }
}
