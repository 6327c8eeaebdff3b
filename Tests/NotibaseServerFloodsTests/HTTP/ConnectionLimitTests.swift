import Foundation
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

/// Nobody without a key can make the server unreachable (issue 28): hostile connections from one
/// address cannot take the room other addresses need, and a head or body trickled a byte at a
/// time is cut at its deadline. Bounded for CI's load pass: 2,000 connections, a few seconds.
/// The server under test raises this process's open-file limit itself (`HTTPServer`'s setrlimit),
/// which covers the test's own sockets too.
@Suite("Connection limits over sockets", .serialized)
struct ConnectionLimitTests {
    @Test func hostileConnectionsFromOneAddressLeaveOtherAddressesAnswered() async throws {
        let (server, directory) = try await InProcessServer.start { configuration in
            configuration.connections.total = 1_000
            configuration.connections.perAddress = 100
            configuration.connections.reserved = 100
        }
        let port = server.port
        // 2,000 connections from 127.0.0.1, each with part of a head, then a byte every 200 ms.
        let hostile = await offPool { (0..<2_000).compactMap { _ in FloodSocket.open(port: port) } }
        for socket in hostile { socket.sendNow("POST /v1/messages HTTP/1.1\r\nHost: x\r\n") }
        let trickling = Trickle(hostile)
        trickling.start()

        // Legitimate requests from 127.0.0.2, one connection each (for 15 s at most).
        let latencies = await offPool { () -> [Double] in
            let began = Date()
            return (0..<50).map { _ in
                let started = Date()
                guard started.timeIntervalSince(began) < 15 else { return .infinity }
                guard let socket = FloodSocket.open(port: port, from: "127.0.0.2") else { return .infinity }
                defer { socket.close() }
                socket.sendNow("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                let (status, _) = socket.readStatus(timeout: 5)
                return status == 200 ? Date().timeIntervalSince(started) : .infinity
            }
        }
        trickling.stop()
        for socket in hostile { socket.close() }
        let p99 = quantile(latencies, 0.99)
        #expect(p99 < 1, "legitimate requests' p99 was \(p99) s (p50 \(quantile(latencies, 0.5)) s) with 2,000 hostile connections open")
        await server.shutdown()
        _ = directory
    }

    /// Seconds from sending `head` until the server closes the connection, sending `byte` every
    /// 300 ms meanwhile (infinity after 8 s).
    func secondsUntilClosed(port: Int, head: String, byte: String) async -> Double {
        await offPool { () -> Double in
            guard let socket = FloodSocket.open(port: port) else { return .infinity }
            defer { socket.close() }
            let started = Date()
            socket.sendNow(head)
            while Date().timeIntervalSince(started) < 8 {
                socket.sendNow(byte)
                if socket.readStatus(timeout: 0.3).closed { return Date().timeIntervalSince(started) }
            }
            return .infinity
        }
    }

    @Test func aHeadTrickledAByteAtATimeIsClosedAtItsDeadline() async throws {
        let (server, directory) = try await InProcessServer.start { $0.connections.headTimeout = .seconds(2) }
        let seconds = await secondsUntilClosed(port: server.port, head: "GET /healthz HTTP/1.1\r\n", byte: "X")
        #expect(seconds >= 1.8 && seconds < 3.5, "a trickled head was closed after \(seconds) s; its deadline is 2 s")
        await server.shutdown()
        _ = directory
    }

    @Test func aBodyTrickledAByteAtATimeIsClosedAtItsDeadline() async throws {
        let (server, directory) = try await InProcessServer.start { $0.connections.bodyTimeout = .seconds(2) }
        let head = "POST /v1/apps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Harness.adminKey)\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
        let seconds = await secondsUntilClosed(port: server.port, head: head, byte: " ")
        #expect(seconds >= 1.8 && seconds < 3.5, "a trickled body was closed after \(seconds) s; its deadline is 2 s")
        await server.shutdown()
        _ = directory
    }

    @Test func aTrustedProxysForwardedClientIsLimitedNotTheProxy() async throws {
        // 127.0.0.3 is the proxy: its connections are not limited by address, but requests in
        // progress are counted for the client its X-Forwarded-For names.
        let (server, directory) = try await InProcessServer.start { configuration in
            configuration.connections.perAddress = 2
            configuration.connections.trustedProxies = ["127.0.0.3"]
        }
        let port = server.port
        let statuses = await offPool { () -> [Int] in
            // Three bodies in progress for 198.51.100.7, through the proxy: the third is refused.
            let head = "POST /v1/apps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Harness.adminKey)\r\nContent-Length: 100\r\n"
            let sockets = (0..<4).compactMap { _ in FloodSocket.open(port: port, from: "127.0.0.3") }
            defer { sockets.forEach { $0.close() } }
            for socket in sockets.prefix(3) { socket.sendNow(head + "X-Forwarded-For: 198.51.100.7, 127.0.0.3\r\n\r\n") }
            // Another client through the same proxy is not held back.
            sockets[3].sendNow(head + "X-Forwarded-For: 203.0.113.9\r\n\r\n")
            return sockets.map { $0.readStatus(timeout: 1).status }
        }
        // Two of the client's three wait for their bodies (no answer yet) and one is 429 (which
        // one is libmicrohttpd's order of reading the heads, not the order they were sent: CI saw
        // the first refused); the other client's waits.
        #expect(statuses.prefix(3).sorted() == [0, 0, 429], "\(statuses)")
        #expect(statuses.count == 4 && statuses[3] == 0, "\(statuses)")
        await server.shutdown()
        _ = directory
    }
}

/// Sends one header byte to each socket every 200 ms, on a thread of its own, until stopped.
final class Trickle: @unchecked Sendable {
    // Unchecked: `running` is an atomic flag read by the one thread; the sockets never change.
    private let sockets: [FloodSocket]
    private let running = AtomicFlag()

    init(_ sockets: [FloodSocket]) { self.sockets = sockets }

    func start() {
        running.set(true)
        Thread.detachNewThread { [self] in
            while running.value {
                for socket in sockets { socket.sendNow("X") }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    func stop() { running.set(false) }
}

/// A Boolean shared between threads.
final class AtomicFlag: @unchecked Sendable {
    // Unchecked: every access holds the lock.
    private let lock = NSLock()
    private var stored = false
    var value: Bool { lock.withLock { stored } }
    func set(_ value: Bool) { lock.withLock { stored = value } }
}
