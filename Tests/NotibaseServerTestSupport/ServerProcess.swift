import Foundation
import Testing
import NotibaseServer
import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
import NotibaseDelivery
import NotibaseTestSupport

/// The built `notibase serve` running as a child process on a temporary data directory, for
/// tests that kill it or drive it from outside (crash tests, PostgreSQL nodes, Schemathesis). The
/// binary is the one built beside the tests (``TestProducts/executable(_:)``), in whatever
/// configuration they were built.
final class ServerProcess: TestClient {
    let dataDirectory: String
    /// The PostgreSQL database it was started on (`--database`), if any.
    let databaseURL: String?
    let port: Int
    private let child: ChildProcess

    private init(dataDirectory: String, databaseURL: String?, port: Int, child: ChildProcess) {
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.port = port
        self.child = child
    }

    /// The built `notibase`, or an error saying how to build it.
    static func binary() throws -> String {
        let binary = TestProducts.executable("notibase").path
        guard FileManager.default.isExecutableFile(atPath: binary) else { throw HarnessError("\(binary) is missing: run swift build first") }
        return binary
    }

    /// Starts `notibase serve` with `arguments` (on 127.0.0.1, a free port, with the harness's
    /// admin key) and waits until it listens. With `captureStandardError` its standard error (the
    /// log) is kept for ``standardErrorText`` instead of passed through. `command` runs another
    /// binary, or runs one through a launcher (`/usr/bin/env -C DIR BINARY` starts it in DIR);
    /// `environment` adds to the test's.
    static func start(
        dataDirectory: String, arguments: [String], captureStandardError: Bool = false, command: [String]? = nil, environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        let command = try command ?? [binary()]
        let child = try ChildProcess(
            command[0],
            command.dropFirst() + ["serve", "--listen", "127.0.0.1:0", "--data-dir", dataDirectory, "--no-access-log", "--log-level", "warning"] + arguments,
            environment: environment.merging(["NOTIBASE_ADMIN_KEY": Harness.adminKey]) { own, _ in own }, capturesStandardError: captureStandardError)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline && child.isRunning {
            let port = child.printed.components(separatedBy: "\n").compactMap { line in
                line.range(of: "listening on http://127.0.0.1:").flatMap { Int(line[$0.upperBound...]) }
            }.first
            if let port {
                let database = arguments.firstIndex(of: "--database").map { arguments[$0 + 1] }
                return ServerProcess(dataDirectory: dataDirectory, databaseURL: database, port: port, child: child)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        await child.terminate()
        throw HarnessError("notibase serve did not start: \(child.printed)")
    }

    /// What it wrote to standard error so far, when started with `captureStandardError`.
    var standardErrorText: String { child.standardErrorText }

    /// Kills the server at once (SIGKILL): no shutdown, no flush.
    func kill() async {
        child.signal(SIGKILL)
        _ = await child.exit()
    }

    /// Stops it the polite way (SIGTERM), waits, and checks what it left: no orphan, dangling
    /// reference or contradiction in its database (`notibase serve --check`'s check).
    func terminate() async {
        child.signal(SIGTERM)
        _ = await child.exit()
        do {
            var configuration = ServerConfiguration()
            configuration.dataDirectory = dataDirectory
            configuration.databaseURL = databaseURL
            let problems = try await Server.integrityProblems(configuration)
            if !problems.isEmpty { Issue.record("the server left inconsistent data: \(problems.joined(separator: "; "))") }
        } catch {
            Issue.record("the storage integrity check failed: \(error)")
        }
    }

    var isRunning: Bool { child.isRunning }

    /// Its process ID.
    var processIdentifier: pid_t { child.processIdentifier }

    /// Sends `signal` and waits for the process to end: its exit status, or 128 plus the signal
    /// that ended it.
    func exitStatus(after signal: Int32) async -> Int32 {
        child.signal(signal)
        return await child.exit()
    }

    /// What the server printed to standard output so far.
    var printed: String { child.printed }

    func request(_ method: String, _ path: String, key: String?, body: String?, headers: [String: String]) async throws -> Reply {
        try await SocketClient(port: port).request(method, path, key: key, body: body, headers: headers)
    }
}
