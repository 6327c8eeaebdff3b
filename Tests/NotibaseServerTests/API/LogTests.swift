import Foundation
import NotibaseSenders
import Synchronization
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

@Suite("Logs")
struct LogTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func logLinesAreJSONWithRequestIDsAndNeverHoldTokensOrKeys() async throws {
        let captured = Lines()
        let logger = Logger(minimumLevel: .debug) { line in captured.lines.withLock { $0.append(line) } }
        let sender = ScriptedSender { _ in SendOutcome(disposition: .deactivateDevice, status: 410, providerReason: "Unregistered") }
        let harness = try await Harness(sender: sender, logger: logger)
        let app = try await harness.createApp()
        try await harness.registerDevice(app, number: 7)
        let keyLine = TestCredentials.p256Key.split(separator: "\n")[1]
        _ = await harness.request("PUT", "/v1/apps/\(app.id)/credentials/apns", key: app.serverKey, body: TestCredentials.apns())
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        _ = await harness.request("GET", "/v1/devices", key: "nb_server_wrong-key")

        let lines = captured.all
        #expect(lines.contains { $0.contains(#""msg":"device deactivated""#) })
        #expect(lines.contains { $0.contains(#""requestId":"#) && $0.contains(#""status":401"#) })
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
            for secret in [Harness.token(7), app.serverKey, app.clientKey, Harness.adminKey, String(keyLine), "nb_server_wrong-key"] {
                #expect(!line.contains(secret), "\(line) holds a secret")
            }
        }
    }
}
