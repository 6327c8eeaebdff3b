import Foundation
import Testing
import NotibaseSenders
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

/// `notibase admin-key rotate`'s work (``Server/rotateAdminKey(_:)``) on the database a server
/// uses, SQLite or PostgreSQL: after the server restarts, the old key is refused and the new one
/// accepted.
@Suite("Admin key rotation")
struct AdminKeyRotationTests {
    @Test func afterARestartTheOldKeyIsRefusedAndTheNewOneAccepted() async throws {
        let directory = TemporaryDirectory()
        var configuration = InProcessServer.unkeyedConfiguration(directory.path)
        let schema = try TestDatabase.postgresURL.map { try TestDatabase.emptySchema($0) }
        defer { schema?.drop() }
        configuration.databaseURL = schema?.url
        configuration.databasePoolSize = 2

        let first = try await Server.start(configuration, senders: .accepting(AcceptingSender()), logger: .silent)
        let old = try #require(first.newAdminKey)
        #expect(try await SocketClient(port: first.port).request("GET", "/v1/apps", key: old).status == 200)
        await first.shutdown()

        let new = try await Server.rotateAdminKey(configuration)
        #expect(new != old && APIKey.isStrong(new, .admin))

        let second = try await Server.start(configuration, senders: .accepting(AcceptingSender()), logger: .silent)
        #expect(second.newAdminKey == nil)
        let client = SocketClient(port: second.port)
        #expect(try await client.request("GET", "/v1/apps", key: old).status == 401)
        #expect(try await client.request("GET", "/v1/apps", key: new).status == 200)
        await second.shutdown()
    }

    @Test func aDataDirectoryWithoutADatabaseIsNotCreated() async throws {
        guard !TestDatabase.isPostgres else { return }
        let directory = TemporaryDirectory()
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path + "/typo"
        await #expect(throws: ConfigurationError.self) { try await Server.rotateAdminKey(configuration) }
        #expect(!FileManager.default.fileExists(atPath: configuration.dataDirectory))
    }
}
