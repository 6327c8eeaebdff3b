import Foundation
import Testing
import NotibaseTestSupport

/// The API as client generators see it: `python_client.py` generates a Python client from the
/// served /openapi.json with openapi-python-client (PyPI, installed by script/bootstrap --tests),
/// refuses any schema the generator drops, and uses the client against the built `notibase serve`.
@Suite("A client generated from /openapi.json", .serialized)
struct GeneratedClientTests {
    @Test(.timeLimit(.minutes(3)))
    func aGeneratedPythonClientSendsAMessageAndReadsItsLog() async throws {
        let root = ServerProcess.packageRoot
        let python = ProcessInfo.processInfo.environment["NOTIBASE_PYTHON"] ?? root.appendingPathComponent(".build/venv/bin/python").path
        let generator = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("openapi-python-client").path
        try #require(FileManager.default.isExecutableFile(atPath: generator), "openapi-python-client is missing: run script/bootstrap --tests")

        let directory = TemporaryDirectory()
        let server = try await ServerProcess.start(dataDirectory: directory.path + "/data", arguments: ["--sender", "accept"])
        // serve prints where the console is, just after where it listens.
        let consoleLine = "the web console is at http://127.0.0.1:\(server.port)/console/"
        for _ in 0..<100 where !server.printed.contains(consoleLine) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.printed.contains(consoleLine))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            root.appendingPathComponent("Tests/NotibaseServerTests/Console/python_client.py").path,
            "--url", "http://127.0.0.1:\(server.port)", "--admin-key", ServerProcess.adminKey, "--out", directory.path + "/client",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = await offPool { output.fileHandleForReading.readDataToEndOfFile() }
        await offPool { process.waitUntilExit() }
        let text = String(decoding: data, as: UTF8.self)
        print(text.components(separatedBy: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("FAIL") || $0.hasPrefix("python client") }.joined(separator: "\n"))
        #expect(process.terminationStatus == 0, "\(text.suffix(6_000))")
        #expect(text.contains("python client test: passed"))
        await server.terminate()
    }
}
