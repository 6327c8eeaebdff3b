import Foundation
import NotibaseCore
import NotibaseTestSupport
import Testing
@testable import NotibaseCLI
@testable import NotibaseCLITestSupport

/// `notibase --version` and the release's files show the one version (`NotibaseVersion.current`).
@Suite("notibase --version")
struct VersionCommandTests {
    @Test func printsTheVersion() async {
        let result = await runCommand(["--version"])
        #expect(result.status == 0)
        #expect(result.output == "notibase \(NotibaseVersion.current)\n")
        #expect(await runCommand(["help"]).output.contains("notibase --version"))
    }

    /// What script/release names the tarball and the Debian package after.
    @Test func theScriptsReadTheSameVersion() async throws {
        let script = TestProducts.packageRoot.appendingPathComponent("script/version").path
        let printed = try await runToEnd(script, [])
        #expect(printed.status == 0 && printed.output == NotibaseVersion.current + "\n", "\(printed.output)")
    }

    @Test func theChangelogsLatestReleaseIsIt() throws {
        let changelog = try String(contentsOf: TestProducts.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let releases = changelog.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(releases.first?.hasPrefix("## [\(NotibaseVersion.current)] - ") == true, "\(releases.first ?? "no release")")
    }
}
