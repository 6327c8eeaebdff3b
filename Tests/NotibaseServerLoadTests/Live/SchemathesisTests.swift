import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// Schemathesis (from PyPI, installed by script/bootstrap --tests into .build/venv) generates
/// requests from /openapi.json, valid and invalid, and checks every answer against the document:
/// no server error, no status, header or body the document does not describe, invalid input
/// rejected; then, statefully, sequences of calls along the document's links.
@Suite("Schemathesis against /openapi.json", .serialized)
struct SchemathesisTests {
    @Test(.timeLimit(.minutes(10)))
    func everyAnswerConformsToTheDocument() async throws {
        let python = ProcessInfo.processInfo.environment["NOTIBASE_PYTHON"] ?? TestProducts.packageRoot.appendingPathComponent(".build/venv/bin/python").path
        let schemathesis = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("schemathesis").path
        try #require(FileManager.default.isExecutableFile(atPath: schemathesis), "Schemathesis is missing: run script/bootstrap --tests")

        let directory = TemporaryDirectory()
        let server = try await ServerProcess.start(dataDirectory: directory.path + "/data", arguments: [
            "--sender", "accept", "--rate-limit-server", "0", "--rate-limit-client", "0", "--rate-limit-admin", "0",
        ])
        let app = try await server.createApp()
        for number in 1...3 { _ = try await server.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(number))"}"#) }

        // GNU env runs it in the test's directory, without a SCHEMATHESIS_HOOKS of the caller's.
        let (status, text) = try await runToEnd("/usr/bin/env", [
            "-C", directory.path, "-u", "SCHEMATHESIS_HOOKS", schemathesis,
            "--config-file", TestProducts.packageRoot.appendingPathComponent("Tests/NotibaseServerLoadTests/Live/schemathesis.toml").path,
            "run", "http://127.0.0.1:\(server.port)/openapi.json", "--max-examples", "25", "--seed", "20261130", "--no-color",
        ], environment: ["NOTIBASE_ST_SERVER_KEY": app.serverKey, "NOTIBASE_ST_ADMIN_KEY": Harness.adminKey])
        let summary = text.components(separatedBy: "\n").filter { $0.contains("generated") || $0.contains(" in ") && $0.contains("==") }
        print("schemathesis: " + summary.joined(separator: " | "))
        #expect(status == 0, "\(text.suffix(6_000))")
        // The stateful phase follows the document's links (a registered device to its log, a
        // message to its deliveries, an identity token to a registration that uses it).
        #expect(text.contains("✅ Stateful"), "the stateful phase did not run: \(text.suffix(2_000))")
        #expect(server.isRunning)
        await server.terminate()
    }
}
