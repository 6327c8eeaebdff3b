import Foundation
import NotibaseCore
import Testing
import NotibaseSenders
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

/// A server in a trial mode (`--sender accept` or `simulated`, `--webhook-allow-insecure`) says so
/// where an operator and a load balancer look: `/healthz` (still 200) and `/metrics`.
@Suite("Trial settings in /healthz and /metrics", .serialized)
struct TrialModeTests {
    @Test func aProductionServerHasNoTrialFieldAndEveryGaugeAtZero() async throws {
        let harness = try await Harness()
        let health = await harness.request("GET", "/healthz", key: nil)
        #expect(health.status == 200)
        #expect(health.text == #"{"status":"ok","version":"\#(NotibaseVersion.current)"}"#)
        let metrics = await harness.request("GET", "/metrics", key: nil).text
        for label in ["sender_simulated", "sender_accept", "webhook_allow_insecure"] {
            #expect(metrics.contains("notibase_trial_mode{setting=\"\(label)\"} 0\n"), "\(label)")
        }
    }

    @Test func theAcceptingSenderAndInsecureWebhooksAreListedAndGaugedWhileHealthStays200() async throws {
        let (server, directory) = try await InProcessServer.start { $0.webhookAllowInsecure = true }
        #expect(server.trialSettings == [.senderAccept, .webhookAllowInsecure])
        let client = SocketClient(port: server.port)
        let health = try await client.request("GET", "/healthz", key: nil)
        #expect(health.status == 200)
        #expect(health["status"].string == "ok")
        #expect(health["trial"].array.compactMap(\.string) == ["sender=accept", "webhook-allow-insecure"])
        let metrics = try await client.request("GET", "/metrics", key: nil).text
        #expect(metrics.contains("# TYPE notibase_trial_mode gauge\n"))
        #expect(metrics.contains("notibase_trial_mode{setting=\"sender_accept\"} 1\n"))
        #expect(metrics.contains("notibase_trial_mode{setting=\"webhook_allow_insecure\"} 1\n"))
        #expect(metrics.contains("notibase_trial_mode{setting=\"sender_simulated\"} 0\n"))
        await server.shutdown()
        _ = directory
    }

    @Test func theSimulatedSenderIsNamedToo() async throws {
        let sender = try AcceptingSender()
        let simulated = SenderSet(ios: sender, android: sender, credentials: .notRequired, trialSetting: .senderSimulated)
        let (server, directory) = try await InProcessServer.start(senders: simulated)
        let health = try await SocketClient(port: server.port).request("GET", "/healthz", key: nil)
        #expect(health["trial"].array.compactMap(\.string) == ["sender=simulated"])
        await server.shutdown()
        _ = directory
    }
}
