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

/// A webhook URL refused for being http or on a loopback or private address names the flag a
/// developer can start their server with.
@Suite("Webhook URL refusals name the development flag")
struct WebhookRefusalHintTests {
    @Test(arguments: ["http://127.0.0.1:9/hook", "https://127.0.0.1/hook", "https://10.0.0.8/hook"])
    func theRefusalNamesTheFlag(url: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(url)"}"#)
        #expect(reply.status == 400 && reply["error"]["field"].string == "url")
        let message = try #require(reply["error"]["message"].string)
        #expect(message.contains("--webhook-allow-insecure") && message.contains("NOTIBASE_WEBHOOK_ALLOW_INSECURE=on"), "\(message)")
    }

    @Test func aMalformedURLDoesNotMentionIt() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "ftp://hooks.example.com/"}"#)
        #expect(reply.status == 400)
        #expect(reply["error"]["message"].string?.contains("--webhook-allow-insecure") == false)
    }
}
