import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
@testable import NotibaseCLI
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
import NotibaseSenders
import NotibaseTestSupport
@testable import NotibaseCLITestSupport

/// The admin key reaches the operator once: on a terminal as before; anywhere else (systemd's
/// journal keeps what it is given) in a file only the server's user can read, with only its path
/// printed and logged. `notibase admin-key rotate` makes a new one the same way.
@Suite("The admin key's file and its rotation")
struct AdminKeyTests {
    static let key = "nb_admin_" + String(repeating: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ", count: 1)

    /// A TerminalIO that keeps what is written, and a logger that keeps its lines.
    final class Captured: Sendable {
        let output = Mutex("")
        let error = Mutex("")
        let log = Mutex("")
        func io(terminal: Bool) -> TerminalIO {
            TerminalIO(
                readInput: { [] }, output: { text in self.output.withLock { $0 += text } }, error: { text in self.error.withLock { $0 += text } },
                outputIsTerminal: terminal)
        }
        var logger: Logger { Logger(minimumLevel: .debug, sink: { line in self.log.withLock { $0 += line } }) }
        var everything: String { output.withLock { $0 } + error.withLock { $0 } + log.withLock { $0 } }
    }

    @Test func withoutATerminalTheKeyIsWrittenToAPrivateFileAndOnlyItsPathIsPrintedAndLogged() throws {
        let directory = TemporaryDirectory()
        let captured = Captured()
        try AdminKeyNotice.deliver(Self.key, event: "created the admin key", dataDirectory: directory.path, io: captured.io(terminal: false), logger: captured.logger)
        let file = URL(fileURLWithPath: directory.path).appendingPathComponent("admin.key").standardizedFileURL.path
        #expect(try String(contentsOfFile: file, encoding: .utf8) == Self.key + "\n")
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
        #expect(!captured.everything.contains(Self.key))
        #expect(captured.output.withLock { $0 }.contains(file))
        #expect(captured.log.withLock { $0 }.contains(#""file":"\#(file)""#))
    }

    @Test func aFileLeftByAnEarlierKeyIsReplacedAndStaysPrivate() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/admin.key"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("old\n".utf8), attributes: [.posixPermissions: 0o644]))
        try AdminKeyNotice.deliver(Self.key, event: "made a new admin key", dataDirectory: directory.path, io: Captured().io(terminal: false), logger: Captured().logger)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == Self.key + "\n")
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aTerminalIsShownTheKeyOnceAndNoFileIsWritten() throws {
        let directory = TemporaryDirectory()
        let captured = Captured()
        try AdminKeyNotice.deliver(Self.key, event: "created the admin key", dataDirectory: directory.path, io: captured.io(terminal: true), logger: captured.logger)
        #expect(captured.output.withLock { $0 }.components(separatedBy: Self.key).count == 2)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/admin.key"))
        #expect(!captured.log.withLock { $0 }.contains(Self.key))
    }

    @Test func rotateWritesANewKeyTheRestartedServerAcceptsAndRefusesTheOldOne() async throws {
        let directory = TemporaryDirectory()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory.path
        configuration.accessLog = false
        let first = try await Server.start(configuration, senders: .accepting(AcceptingSender()), logger: Logger(minimumLevel: .error))
        let old = try #require(first.newAdminKey)
        await first.shutdown()

        let rotated = await runCommand(["admin-key", "rotate", "--data-dir", directory.path])
        #expect(rotated.status == 0, "\(rotated.error)")
        let file = URL(fileURLWithPath: directory.path).appendingPathComponent("admin.key").standardizedFileURL.path
        let new = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(new.hasPrefix("nb_admin_") && new != old)
        #expect(rotated.output.contains(file) && rotated.output.contains("restart") && !rotated.output.contains(new))
        #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)

        let second = try await Server.start(configuration, senders: .accepting(AcceptingSender()), logger: Logger(minimumLevel: .error))
        #expect(try await Self.status(port: second.port, key: old) == 401)
        #expect(try await Self.status(port: second.port, key: new) == 200)
        await second.shutdown()
    }

    @Test func rotateNeedsAnExistingDatabaseAndAnAction() async throws {
        let directory = TemporaryDirectory()
        let missing = await runCommand(["admin-key", "rotate", "--data-dir", directory.path + "/typo"])
        #expect(missing.status == 1 && missing.error.contains("no database"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/typo"))
        #expect(await runCommand(["admin-key"]).status == 2)
        #expect(await runCommand(["admin-key", "show"]).status == 2)
    }

    /// Run by root on the service's SQLite directory, the command would leave files root owns
    /// there (the write-ahead log) that the server's user then cannot open: it says whom to run as.
    @Test func rotateRefusesADataDirectoryAnotherUserOwns() async throws {
        guard geteuid() == 0 else { return }
        let directory = TemporaryDirectory()
        let data = directory.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: data + "/notibase.sqlite", contents: Data()))
        #expect(chown(data, 65_534, 65_534) == 0)
        let refused = await runCommand(["admin-key", "rotate", "--data-dir", data])
        #expect(refused.status == 2 && refused.error.contains("sudo -u"), "\(refused.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data) == ["notibase.sqlite"])
    }

    private static func status(port: Int, key: String) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/apps")!)
        request.setValue("Bearer " + key, forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
