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

/// `notibase serve --check`, as an operator runs it: the real binary on a real data directory.
@Suite("notibase serve --check", .tags(.processes))
struct IntegrityCommandTests {
    static func check(_ dataDirectory: String) async throws -> (status: Int32, output: String) {
        try await runToEnd(try ServerProcess.binary(), ["serve", "--check", "--data-dir", dataDirectory])
    }

    @Test func reportsAConsistentStoreThenEveryProblemWithANonZeroExit() async throws {
        let directory = TemporaryDirectory()
        let data = directory.path + "/data"
        let missing = try await Self.check(data)
        #expect(missing.status != 0 && missing.output.contains("no database"))

        let server = try await ServerProcess.start(dataDirectory: data, arguments: ["--sender", "accept"])
        let app = try await server.createApp()
        _ = try await server.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))"}"#)
        await server.terminate()
        let clean = try await Self.check(data)
        #expect(clean.status == 0 && clean.output.contains("consistent"), "\(clean.output)")

        try SQLiteConnection(path: data + "/notibase.sqlite").execute("""
            PRAGMA foreign_keys = OFF;
            INSERT INTO deliveries (id, message_seq, device_seq, platform, state, created_at, updated_at) VALUES ('stray', 4242, NULL, 'ios', 'sent', 0, 0);
            """)
        let broken = try await Self.check(data)
        #expect(broken.status == 1 && broken.output.contains("1 problem") && broken.output.contains("deliveries"), "\(broken.output)")
    }
}
