import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The web console in a real browser: `console_browser.py` (Selenium from PyPI, Debian's headless
/// `chromium` and `chromium-driver`, all installed by script/bootstrap --tests) starts
/// `notibase demo --console` and drives every page; the Webhooks page against `notibase serve
/// --webhook-allow-insecure` and a receiver on loopback. Screenshots of each page are written to
/// `.build/console-screenshots` (or `NOTIBASE_SCREENSHOTS`); docs/console.md shows them.
/// In script/test's load pass: a browser and a server with simulated phones load the machine.
@Suite("Console in a browser", .serialized)
struct ConsoleBrowserTests {
    @Test(.timeLimit(.minutes(5)))
    func signInComposeSendWatchTheFunnelAndAskADevice() async throws {
        let root = TestProducts.packageRoot
        let python = ProcessInfo.processInfo.environment["NOTIBASE_PYTHON"] ?? root.appendingPathComponent(".build/venv/bin/python").path
        try #require(FileManager.default.isExecutableFile(atPath: python), "the test Python is missing: run script/bootstrap --tests")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "chromium-driver is missing: run script/bootstrap --tests")
        let binary = try ServerProcess.binary()
        let screenshots = ProcessInfo.processInfo.environment["NOTIBASE_SCREENSHOTS"] ?? root.appendingPathComponent(".build/console-screenshots").path

        let (status, text) = try await runToEnd(python, [
            root.appendingPathComponent("Tests/NotibaseServerLoadTests/Console/console_browser.py").path,
            "--notibase", binary, "--screenshots", screenshots,
        ])
        print(text.components(separatedBy: "\n").filter { $0.hasPrefix("console browser test") || $0.hasPrefix("FAIL") }.joined(separator: "\n"))
        #expect(status == 0, "\(text.suffix(8_000))")
        #expect(text.contains("checks passed"))
        for page in ["sign-in-refused", "compose", "compose-doctor", "message", "messages", "devices", "device", "apps", "apps-delete", "compose-phone", "webhooks", "webhooks-attempts", "device-long", "message-long", "devices-long",
                     "compose-unmatched", "device-actions", "messages-forgotten"] {
            #expect(FileManager.default.fileExists(atPath: "\(screenshots)/\(page).png"), "no screenshot of \(page)")
        }
    }
}
