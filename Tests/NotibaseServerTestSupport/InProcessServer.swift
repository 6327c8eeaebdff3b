import NotibaseTestSupport
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

/// A whole ``Server`` (what `notibase serve` runs: the HTTP server, the fan-out, the workers,
/// retention) started in this process, on 127.0.0.1 and a free port, with the harness's admin key,
/// the accepting sender (or `senders`) and a 4 KiB body limit, on a temporary data directory. Its ``SocketClient``
/// talks to it; the test shuts it down.
enum InProcessServer {
    static func start(
        senders: SenderSet? = nil, _ adjust: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> (server: Server, directory: TemporaryDirectory) {
        let directory = TemporaryDirectory()
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.dataDirectory = directory.path
        configuration.adminKey = Harness.adminKey
        configuration.accessLog = false
        configuration.limits.maxBodyBytes = 4_096
        adjust(&configuration)
        let server = try await Server.start(configuration, senders: try senders ?? .accepting(AcceptingSender()), logger: .silent)
        return (server, directory)
    }

    /// What `notibase serve` runs with by default in `directory`, on a free port and without the
    /// harness's admin key: its first start makes one (``Server/newAdminKey``).
    static func unkeyedConfiguration(_ directory: String) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory
        configuration.accessLog = false
        return configuration
    }
}
