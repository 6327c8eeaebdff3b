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
@testable import NotibaseServerTestSupport

@Suite struct WebhookSignatureTests {
    /// The example of the Standard Webhooks specification's reference libraries: this secret, id,
    /// timestamp and body sign to this header.
    @Test func signsAsTheSpecificationsExample() throws {
        let key = try #require(WebhookSignature.key(of: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let header = try WebhookSignature.header(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8), keys: [key])
        #expect(header == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func signsOncePerKeyWhileASecretRotates() throws {
        let old = try #require(WebhookSignature.key(of: try WebhookSignature.newSecret()))
        let new = try #require(WebhookSignature.key(of: try WebhookSignature.newSecret()))
        let header = try WebhookSignature.header(id: "a", timestamp: 1, body: [], keys: [old, new])
        let parts = header.split(separator: " ")
        #expect(parts.count == 2 && parts.allSatisfy { $0.hasPrefix("v1,") } && parts[0] != parts[1])
    }

    @Test func refusesWhatIsNotASecret() {
        #expect(WebhookSignature.key(of: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil)
        #expect(WebhookSignature.key(of: "whsec_!!!") == nil)
        #expect(WebhookSignature.key(of: "whsec_") == nil)
    }
}
