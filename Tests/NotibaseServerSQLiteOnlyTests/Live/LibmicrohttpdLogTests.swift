import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// libmicrohttpd's own messages reach the server's JSON log, never standard error as plain lines.
@Suite("libmicrohttpd log of a live server", .serialized, .tags(.processes))
struct LibmicrohttpdLogTests {
    @Test func aMalformedRequestLeavesOnlyJSONLinesOnStandardError() async throws {
        let directory = TemporaryDirectory()
        let server = try await ServerProcess.start(dataDirectory: directory.path + "/data", arguments: ["--sender", "accept"], captureStandardError: true)
        // libmicrohttpd refuses this length itself, and says so in its log.
        let client = RawHTTPClient(port: server.port)
        let response = try #require(await client.exchange("POST /v1/apps HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n"))
        #expect(response.status == 400)
        var text = ""
        for _ in 0..<250 where !text.contains("libmicrohttpd") {
            try await Task.sleep(for: .milliseconds(20))
            text = server.standardErrorText
        }
        await server.terminate()
        text = server.standardErrorText
        let lines = text.split(separator: "\n").filter { !$0.isEmpty }
        let objects = lines.map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(!objects.contains { $0 == nil }, "plain lines on standard error:\n\(text)")
        let fromLibrary = objects.compactMap { $0 }.filter { $0["source"] as? String == "libmicrohttpd" }
        #expect(!fromLibrary.isEmpty, "\(text)")
        #expect(fromLibrary.allSatisfy { $0["level"] as? String == "warning" && !(($0["msg"] as? String) ?? "").isEmpty })
    }
}
