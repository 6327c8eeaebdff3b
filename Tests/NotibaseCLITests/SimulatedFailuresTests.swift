#if os(Linux)
import Testing
@testable import NotibaseCLI
import NotibaseCore
import NotibaseSenders
import NotibaseServer
import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
import NotibaseDelivery

/// `notibase serve --sender simulated` with `--simulated-uninstalled` and `--simulated-throttled`:
/// the simulated providers refuse those tokens as APNs and FCM do, and what follows is what the
/// real senders report for those answers (never kinder).
@Suite struct SimulatedFailuresTests {
    private static func senders(_ words: [String]) throws -> SenderSet {
        try ServeCommand.Settings(arguments: try Arguments(words, spec: ServeCommand.options), environment: [:]).senders()
    }

    private static func apns(_ token: String) -> Push {
        let credentials = APNsCredentials(appID: "app", bundleID: "com.example.shop", environment: .production,
                                          authentication: .token(privateKeyPEM: "", keyID: "KEY", teamID: "TEAM"))
        return Push(deliveryID: "d-\(token)", request: .apns(APNsRequest(deviceToken: token, headers: [], body: Array(#"{"aps":{"alert":"Hi"}}"#.utf8))),
                    credentials: .apns(credentials))
    }

    private static func fcm(_ token: String) -> Push {
        let credentials = FCMCredentials(appID: "app", projectID: "shop", clientEmail: "push@shop.example", privateKeyPEM: "")
        return Push(deliveryID: "d-\(token)", request: .fcm(FCMRequest(deviceToken: token, body: Array(#"{"message":{"token":"\#(token)"}}"#.utf8))),
                    credentials: .fcm(credentials))
    }

    @Test func anUninstalledAppsTokenIsDeactivatedAsAPNsAndFCMAnswer() async throws {
        let senders = try Self.senders(["--sender", "simulated", "--simulated-uninstalled", "aa01,bb02"])
        let ios = await senders.ios.send([Self.apns("aa01"), Self.apns("cc03")])
        #expect(ios[0].disposition == .deactivateDevice && ios[0].status == 410 && ios[0].providerReason == "Unregistered" && ios[0].tokenInvalidSince != nil)
        #expect(ios[1].disposition == .sent)
        let android = await senders.android.send([Self.fcm("bb02")])[0]
        #expect(android.disposition == .deactivateDevice && android.status == 404 && android.providerReason == "UNREGISTERED")
    }

    @Test func aThrottledTokensFirstPushIsRetriedAsTheRealSendersRetryIt() async throws {
        let senders = try Self.senders(["--sender", "simulated", "--simulated-throttled", "aa01, bb02"])
        let ios = await senders.ios.send([Self.apns("aa01")])[0]
        #expect(ios == .apnsAnswer(status: 429, reason: "TooManyRequests"))
        #expect(ios.disposition == .retry && ios.retryAfter == nil && ios.explanation?.contains("Too many pushes to this device") == true)
        #expect(await senders.ios.send([Self.apns("aa01")])[0].disposition == .sent)
        // FCM's quota: not sooner than the FCM sender's floor, a minute.
        let android = await senders.android.send([Self.fcm("bb02")])[0]
        #expect(android.disposition == .retry && android.status == 429 && android.providerReason == "QUOTA_EXCEEDED" && android.retryAfter == .seconds(60))
        #expect(await senders.android.send([Self.fcm("bb02")])[0].disposition == .sent)
    }

    @Test func theOptionsNeedTheSimulatedSender() {
        #expect(throws: UsageError.self) { try Self.senders(["--simulated-throttled", "aa01"]) }
        #expect(throws: UsageError.self) { try Self.senders(["--sender", "accept", "--simulated-uninstalled", "aa01"]) }
    }
}
#endif
