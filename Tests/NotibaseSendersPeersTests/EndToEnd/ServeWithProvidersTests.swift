import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import NotibaseTestSupport
@testable import NotibaseSenders

/// `notibase serve --sender providers`, the production wiring, against the APNs test peer: the
/// app's stored .p8 key signs the JWT the peer verifies, the core's rendered request arrives
/// unchanged, APNs' id lands in the delivery log, and a 410 deactivates the device.
extension PeerTests {
    @Suite("notibase serve with the real senders")
    struct ServeWithProvidersTests {
        static let admin = "nb_admin_Hhm6spvGQypFN1UVrjMvX8lUDbAQCsCwXDzLQpI8GJ0"

        @Test func aMessageGoesThroughAPNsAndTheLogSaysSo() async throws {
            let alive = String(repeating: "0a", count: 32)
            let gone = String(repeating: "0b", count: 32)
            let fixture = try await APNsFixture.start(script: ["tokens": [gone: [["status": 410, "reason": "Unregistered", "timestamp": 1_764_000_000_000]]]])
            let data = TemporaryDirectory("notibase-serve-providers")
            let (server, base) = try Self.serve(data, logLevel: "error", ["--apns-url", fixture.peer.url, "--apns-ca", fixture.peer.caFile])

            let app = try await call(base, "POST", "/v1/apps", Self.admin, #"{"name":"APNs"}"#)
            let appID = try #require(app["id"] as? String)
            let serverKey = try #require(app["serverKey"] as? String)
            let credentials: [String: Any] = [
                "keyId": fixture.key.keyID, "teamId": fixture.key.teamID, "bundleId": "com.example.app", "environment": "production",
                "privateKey": fixture.key.privateKeyPEM,
            ]
            _ = try await call(base, "PUT", "/v1/apps/\(appID)/credentials/apns", serverKey, String(decoding: try JSONSerialization.data(withJSONObject: credentials), as: UTF8.self))
            for token in [alive, gone] {
                _ = try await call(base, "POST", "/v1/devices", serverKey, #"{"platform":"ios","token":"\#(token)"}"#)
            }
            let sent = try await call(base, "POST", "/v1/messages", serverKey,
                #"{"message":{"title":"Hello","buttons":[{"id":"ok","text":"OK"}]},"audience":{"all":true}}"#)
            let messageID = try #require(sent["id"] as? String)

            var deliveries: [[String: Any]] = []
            for _ in 0..<300 {
                deliveries = try await call(base, "GET", "/v1/messages/\(messageID)/deliveries", serverKey, nil)["items"] as? [[String: Any]] ?? []
                if deliveries.count == 2 && deliveries.allSatisfy({ ["sent", "failed"].contains($0["state"] as? String) }) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let byState = Dictionary(grouping: deliveries, by: { $0["state"] as? String ?? "" })
            #expect(byState["sent"]?.count == 1)
            #expect(byState["failed"]?.count == 1)

            // What reached "APNs": the path, the topic from the stored credentials, the rendered body.
            let request = try #require(try fixture.peer.requests().first { ($0["path"] as? String) == "/3/device/\(alive)" })
            let headers = request["headers"] as? [String: Any] ?? [:]
            #expect(headers["apns-topic"] as? String == "com.example.app")
            #expect(headers["apns-push-type"] as? String == "alert")
            let delivery = try #require(byState["sent"]?.first)
            #expect(delivery["providerId"] as? String == delivery["id"] as? String, "apns-id is the delivery ID, echoed by APNs")
            #expect((request["body_size"] as? Int ?? 0) > 100, "the rendered body, with nb_buttons and the receipt ids")

            // 410: the device is deactivated with APNs' reason.
            let devices = try await call(base, "GET", "/v1/devices", serverKey, nil)["items"] as? [[String: Any]] ?? []
            let dead = devices.first { $0["token"] as? String == gone }
            #expect(dead?["active"] as? Bool == false)
            #expect((dead?["deactivatedReason"] as? String)?.contains("Unregistered") == true)
            server.stop()
        }

        /// `notibase serve` on a free port with the real senders and `arguments`, its standard
        /// error kept (``ChildProcess/standardErrorText``), and the URL it listens on.
        static func serve(_ data: TemporaryDirectory, logLevel: String, _ arguments: [String]) throws -> (ChildProcess, URL) {
            let server = try ChildProcess(
                TestProducts.executable("notibase").path,
                ["serve", "--listen", "127.0.0.1:0", "--data-dir", data.url.path, "--no-access-log", "--log-level", logLevel] + arguments,
                environment: ["NOTIBASE_ADMIN_KEY": admin], capturesStandardError: true)
            var line = ""
            while !line.contains("listening on") { line = try server.readLine(timeout: .seconds(30)) }
            return (server, URL(string: String(line[line.range(of: "http://")!.lowerBound...]))!)
        }

        func call(_ base: URL, _ method: String, _ path: String, _ key: String, _ body: String?) async throws -> [String: Any] {
            var request = URLRequest(url: URL(string: path, relativeTo: base)!)
            request.httpMethod = method
            request.setValue("Bearer " + key, forHTTPHeaderField: "Authorization")
            if let body {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(body.utf8)
            }
            let (data, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard (200..<300).contains(status) else { throw PeerError("\(method) \(path): \(status) \(String(decoding: data, as: UTF8.self))") }
            return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        }
    }
}
