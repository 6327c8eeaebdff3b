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

/// `notibase serve`'s first start as systemd runs it: standard output a pipe (a journal), not a
/// terminal. The admin key goes to a file only its user can read, never to the output or the log;
/// a trial setting is announced on standard error.
@Suite("notibase serve's first start under a service manager", .tags(.processes))
struct FirstStartTests {
    @Test func theAdminKeyIsInAPrivateFileAndNowhereInTheOutputAndTrialSettingsAreWarnedOf() async throws {
        let directory = TemporaryDirectory()
        let data = directory.path + "/data"
        let child = try ChildProcess(
            try ServerProcess.binary(), ["serve", "--listen", "127.0.0.1:0", "--data-dir", data, "--no-access-log", "--sender", "accept"],
            capturesStandardError: true)
        let deadline = ContinuousClock.now + .seconds(30)
        var port: Int?
        while port == nil, ContinuousClock.now < deadline, child.isRunning {
            port = child.printed.components(separatedBy: "\n").compactMap { line in
                line.range(of: "listening on http://127.0.0.1:").flatMap { Int(line[$0.upperBound...]) }
            }.first
            if port == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        defer { child.stop() }
        let listening = try #require(port, "\(child.printed)\(child.standardErrorText)")

        let file = data + "/admin.key"
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let key = text.trimmingCharacters(in: .newlines)
        #expect(text == key + "\n" && APIKey.isStrong(key, .admin))
        #expect(child.printed.contains(file), "\(child.printed)")
        #expect(!child.printed.contains(key) && !child.standardErrorText.contains(key))
        #expect(child.standardErrorText.contains(#""file":"\#(file)""#), "\(child.standardErrorText)")
        #expect(child.printed.contains("WARNING: --sender accept (NOTIBASE_SENDER=accept) is set: nothing is delivered to Apple or Google"))
        #expect(!child.standardErrorText.contains("notibase: WARNING"), "standard error holds the log's JSON lines only")
        #expect(child.standardErrorText.contains(#""level":"warning","msg":"trial setting: not for production""#))

        let apps = try await SocketClient(port: listening).request("GET", "/v1/apps", key: key)
        #expect(apps.status == 200)
    }
}
