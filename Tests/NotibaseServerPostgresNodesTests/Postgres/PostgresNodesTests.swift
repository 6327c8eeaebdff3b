import Foundation
import Synchronization
import Testing
import NotibaseCore
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

/// `notibase serve` processes on one PostgreSQL database: an outage of the database under load,
/// and several nodes of which some die. They need the throwaway cluster script/test starts
/// (`NOTIBASE_TEST_DATABASE_URL` and its directory, `NOTIBASE_TEST_POSTGRES_DIR`), and run alone,
/// since they load the machine and drop connections.
@Suite("PostgreSQL nodes", .serialized, .enabled(if: TestCluster.current != nil))
struct PostgresNodesTests {
    static var cluster: (url: String, directory: String)? { TestCluster.current }

    /// A database of its own, for one test.
    static func database() throws -> String {
        let (base, _) = try #require(cluster)
        let name = "nodes_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        try PostgresConnection(url: base).execute("CREATE DATABASE \(name)")
        let slash = try #require(base.lastIndex(of: "/"))
        return base[...slash] + name
    }

    static func register(_ count: Int, on server: ServerProcess, _ app: TestApp, from first: Int = 0) async throws {
        for start in stride(from: first, to: first + count, by: 5_000) {
            let devices = (start..<min(start + 5_000, first + count)).map { #"{"platform": "ios", "token": "\#(Harness.token($0))"}"# }
            let reply = try await server.request("POST", "/v1/devices/batch", key: app.serverKey, body: #"{"devices": [\#(devices.joined(separator: ","))]}"#)
            try #require(reply.status == 200, "\(reply.text)")
        }
    }

    /// The database drops every connection and refuses new ones while registrations and a fan-out
    /// are under way: every answer is a success or a 503 with Retry-After (never a 500, never a
    /// hang), the node reconnects by itself, and the message reaches every device.
    @Test(.timeLimit(.minutes(5)))
    func anOutageUnderLoadIsA503ThenEverythingResumes() async throws {
        let directory = TemporaryDirectory()
        let record = directory.path + "/sent.log"
        let url = try Self.database()
        let server = try await ServerProcess.start(dataDirectory: directory.path + "/data", arguments: [
            "--database", url, "--sender", "accept", "--sender-record", record, "--lease-seconds", "2", "--fanout-batch", "500",
            "--rate-limit-server", "0", "--rate-limit-client", "0", "--max-body-bytes", "4194304",
        ])
        let app = try await server.createApp()
        try await Self.register(20_000, on: server, app)
        let sent = try await server.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "During the restart"}, "audience": {"all": true}}"#)
        let message = try #require(sent["id"].string)

        let statuses = Mutex<[Int: Int]>([:])
        let load = Task {
            var number = 1_000_000
            while !Task.isCancelled {
                number += 1
                let reply = try await server.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(number))"}"#)
                statuses.withLock { $0[reply.status, default: 0] += 1 }
                if reply.status == 503 { #expect(reply.headers["retry-after"] != nil && reply.errorCode == "unavailable") }
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        // The outage as the node sees a failover: every connection dropped, and new ones refused
        // for a second and a half.
        let name = String(url[url.index(after: url.lastIndex(of: "/")!)...])
        let admin = try PostgresConnection(url: try #require(Self.cluster).url)
        try admin.execute("ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
        try admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
        try await Task.sleep(for: .milliseconds(1_500))
        try admin.execute("ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
        try await Task.sleep(for: .seconds(2))
        load.cancel()
        _ = try? await load.value

        // Devices registered while the message was fanned out joined its audience.
        let finished = try await server.waitUntilCompleted(message, app)
        let total = finished["counts"]["total"].int ?? 0
        #expect(finished["state"].string == "completed")
        #expect(total >= 20_000 && finished["counts"]["byState"]["sent"].int == total)
        let seen = statuses.withLock { $0 }
        print("postgres outage: registrations answered \(seen.sorted { $0.key < $1.key }.map { "\($0.value)×\($0.key)" }.joined(separator: ", "))")
        #expect(Set(seen.keys).isSubset(of: [200, 201, 503]), "\(seen)")
        #expect((seen[201] ?? 0) > 0)
        // After the restart the pool answers again without any intervention.
        #expect(try await server.request("GET", "/v1/messages/\(message)", key: app.serverKey).status == 200)
        await server.terminate()
        #expect(Set(SenderRecord.lines(record)).count == total)
    }

    /// Three nodes on one database: one is killed during fan-out, another while sending, and one
    /// of them restarted. Every delivery ends sent, and the duplicates stay within what the killed
    /// nodes held in flight.
    @Test(.timeLimit(.minutes(8)))
    func nodesKilledDuringFanOutAndSendingLoseNothing() async throws {
        let devices = 100_000
        let batch = 1_000
        let workers = 2
        let directory = TemporaryDirectory()
        let url = try Self.database()
        func node(_ number: Int) async throws -> ServerProcess {
            try await ServerProcess.start(dataDirectory: directory.path + "/data\(number)", arguments: [
                "--database", url, "--sender", "accept", "--sender-record", directory.path + "/sent\(number).log", "--lease-seconds", "2",
                "--workers", "\(workers)", "--batch-size", "\(batch)", "--fanout-batch", "2000", "--rate-limit-server", "0",
                "--max-body-bytes", "4194304", "--database-pool", "4",
            ])
        }
        var nodes = [try await node(0), try await node(1), try await node(2)]
        let app = try await nodes[0].createApp()
        try await Self.register(devices, on: nodes[0], app)
        let sent = try await nodes[1].request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "To everyone"}, "audience": {"all": true}}"#)
        let message = try #require(sent["id"].string)
        func pushes() -> Int { (0..<4).reduce(0) { $0 + SenderRecord.lines(directory.path + "/sent\($1).log").count } }

        // Kill one node while the message is still being fanned out, another once sending is under way.
        while try await nodes[2].request("GET", "/v1/messages/\(message)", key: app.serverKey)["counts"]["total"].int ?? 0 < 4_000 {
            try await Task.sleep(for: .milliseconds(5))
        }
        await nodes[0].kill()
        while pushes() < 20_000 { try await Task.sleep(for: .milliseconds(5)) }
        await nodes[1].kill()
        nodes[0] = try await node(3)
        let finished = try await nodes[2].waitUntilCompleted(message, app, seconds: 240)
        #expect(finished["state"].string == "completed")
        #expect(finished["counts"]["byState"]["sent"].int == devices)
        await nodes[0].terminate()
        await nodes[2].terminate()

        let lines = (0..<4).flatMap { SenderRecord.lines(directory.path + "/sent\($0).log") }
        let duplicates = lines.count - Set(lines).count
        let bound = 2 * workers * batch  // two nodes killed, each with its workers' batches in flight
        print("postgres nodes: \(lines.count) pushes for \(Set(lines).count) deliveries on 3 nodes, two killed: \(duplicates) duplicates (bound: \(bound) in flight)")
        #expect(Set(lines).count == devices)
        #expect(duplicates <= bound)
    }
}

/// The throwaway PostgreSQL cluster script/test started, when it says so.
enum TestCluster {
    static let current: (url: String, directory: String)? = {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["NOTIBASE_TEST_DATABASE_URL"], let directory = environment["NOTIBASE_TEST_POSTGRES_DIR"] else { return nil }
        return (url, directory)
    }()
}
