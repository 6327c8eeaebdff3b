import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The API as client generators see it: `python_client.py` generates a Python client from the
/// served /openapi.json with openapi-python-client (PyPI, installed by script/bootstrap --tests),
/// refuses any schema the generator drops, and uses the client against the built `notibase serve`.
@Suite("A client generated from /openapi.json", .serialized, .tags(.processes))
struct GeneratedClientTests {
    @Test(.timeLimit(.minutes(3)))
    func aGeneratedPythonClientSendsAMessageAndReadsItsLog() async throws {
        let root = TestProducts.packageRoot
        let python = ProcessInfo.processInfo.environment["NOTIBASE_PYTHON"] ?? root.appendingPathComponent(".build/venv/bin/python").path
        let generator = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("openapi-python-client").path
        try #require(FileManager.default.isExecutableFile(atPath: generator), "openapi-python-client is missing: run script/bootstrap --tests")

        let directory = TemporaryDirectory()
        let server = try await ServerProcess.start(dataDirectory: directory.path + "/data", arguments: ["--sender", "accept"])
        // serve prints where the console is, just after where it listens.
        let consoleLine = "the web console is at http://127.0.0.1:\(server.port)/console/"
        for _ in 0..<100 where !server.printed.contains(consoleLine) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.printed.contains(consoleLine))
        let (status, text) = try await runToEnd(python, [
            root.appendingPathComponent("Tests/NotibaseServerTests/Console/python_client.py").path,
            "--url", "http://127.0.0.1:\(server.port)", "--admin-key", Harness.adminKey, "--out", directory.path + "/client",
        ])
        print(text.components(separatedBy: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("FAIL") || $0.hasPrefix("python client") }.joined(separator: "\n"))
        #expect(status == 0, "\(text.suffix(6_000))")
        #expect(text.contains("python client test: passed"))
        await server.terminate()
    }
}
