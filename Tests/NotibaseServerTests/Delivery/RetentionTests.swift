import Foundation
import NotibaseSenders
import Testing
import NotibaseCore
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

@Suite("Retention")
struct RetentionTests {
    /// A sender for which device 3 answers "retry in a day" every time: its messages stay sending.
    static func retryingDevice3() -> ScriptedSender {
        ScriptedSender { push in
            push.request.deviceToken == Harness.token(3)
                ? SendOutcome(disposition: .retry, status: 429, providerReason: "TooManyRequests", retryAfter: .seconds(86_400))
                : .sent(providerID: "p")
        }
    }

    /// A finished message older than the period goes with its deliveries, events and receipts; a
    /// newer one, and one still sending, stay. On both backends.
    @Test func oldFinishedHistoryIsRemovedInBatchesAndTheRestKept() async throws {
        let harness = try await Harness(sender: Self.retryingDevice3())
        let app = try await harness.createApp()
        for number in 1...2 { try await harness.registerDevice(app, number: number) }
        let old = try await harness.send(app, #"{"message": {"title": "Old"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        let delivery = try #require(await harness.request("GET", "/v1/messages/\(old)/deliveries", key: app.serverKey)["items"][0]["id"].string)
        let receipt = #"{"id": "r", "deliveryId": "\#(delivery)", "event": "opened", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(harness.signer.receiptSignature(deliveryID: delivery))"}"#
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt).status == 202)
        try await harness.registerDevice(app, number: 3)
        let stuck = try await harness.send(app, #"{"message": {"title": "Still sending"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        #expect(await harness.request("GET", "/v1/messages/\(stuck)", key: app.serverKey)["state"].string == "sending")

        // Past the period and one week more: on PostgreSQL the history's week has ended before the
        // period too (the week itself stays: the message still sending holds it).
        harness.advance(38 * 86_400)
        let later = Timestamp.format(harness.time.now.addingTimeInterval(3_600))
        let scheduled = try await harness.send(app, #"{"message": {"title": "Not yet sent"}, "audience": {"all": true}, "sendAt": "\#(later)"}"#)

        let retention = Retention(store: harness.store, clock: WallClock { harness.time.now }, logger: .silent, period: .seconds(30 * 86_400), batchSize: 1)
        #expect(try await retention.runOnce() == 3)  // a delivery, then the other and its message
        #expect(await harness.request("GET", "/v1/messages/\(old)", key: app.serverKey).status == 404)
        #expect(await harness.request("GET", "/v1/deliveries/\(delivery)", key: app.serverKey).status == 404)
        #expect(try await harness.store.rowCount("receipts") == 0)
        #expect(await harness.request("GET", "/v1/messages/\(stuck)", key: app.serverKey)["state"].string == "sending")
        #expect(await harness.request("GET", "/v1/messages/\(scheduled)", key: app.serverKey)["state"].string == "scheduled")
        #expect(try await retention.runOnce() == 0)
    }
}
