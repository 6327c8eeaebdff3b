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
@testable import NotibaseServerTestSupport

@Suite("Receipts and the delivery log")
struct ReceiptsTests {
    static let sale = #"{"message": {"title": "Sale", "buttons": [{"id": "buy", "text": "Buy"}, {"id": "later", "text": "Later"}]}, "audience": {"all": true}}"#

    /// A receipt body, signed as the payload of `delivery` was unless `signature` says otherwise.
    func receipt(_ id: String, _ delivery: String, _ message: String?, event: String, extra: String = "", signature: String? = nil) -> String {
        let signature = signature ?? Signer(secretKey: Harness.secretKey).receiptSignature(deliveryID: delivery)
        return #"{"id": "\#(id)", "deliveryId": "\#(delivery)", \#(message.map { #""messageId": "\#($0)", "# } ?? "")"event": "\#(event)", "occurredAt": "2027-01-15T08:00:00Z", "signature": "\#(signature)"\#(extra)}"#
    }

    @Test func renderedAndActionReceiptsTellWhatTheDeviceDid() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let (delivery, message) = try await harness.sentDelivery(app, message: Self.sale)
        let render = #", "render": {"categoryId": "nb_0123456789abcdef", "buttons": ["buy", "later"], "imageAttached": false, "imageFailure": "404", "completion": "complete", "elapsedMilliseconds": 40}"#
        let rendered = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt("r1", delivery, message, event: "rendered", extra: render))
        #expect(rendered.status == 202)
        let action = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt("r2", delivery, message, event: "action", extra: #", "actionId": "buy""#))
        #expect(action.status == 202)

        let log = await harness.request("GET", "/v1/deliveries/\(delivery)", key: app.serverKey)
        #expect(log["state"].string == "action")
        let history = log["history"].array
        #expect(history.map { $0["event"].string ?? "" } == ["queued", "sent", "rendered", "action"])
        #expect(history[2]["render"]["buttons"].array.count == 2)
        #expect(history[2]["render"]["imageFailure"].string == "404")
        #expect(history[3]["actionId"].string == "buy")
    }

    @Test func theSameReceiptTwiceIsAcceptedOnce() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let (delivery, message) = try await harness.sentDelivery(app, message: Self.sale)
        let body = receipt("same", delivery, message, event: "opened")
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: body).status == 202)
        let again = await harness.request("POST", "/v1/receipts", key: app.clientKey, body: body)
        #expect(again.status == 200 && again["duplicate"].bool == true)
        let history = await harness.request("GET", "/v1/deliveries/\(delivery)", key: app.serverKey)["history"].array
        #expect(history.filter { $0["event"].string == "opened" }.count == 1)
    }

    @Test func aReceiptForAnUnknownOrAnotherAppsDeliveryIsRejected() async throws {
        let harness = try await Harness()
        let owner = try await harness.createApp("Owner")
        let other = try await harness.createApp("Other")
        let (delivery, message) = try await harness.sentDelivery(owner, message: Self.sale)
        let foreign = await harness.request("POST", "/v1/receipts", key: other.clientKey, body: receipt("x1", delivery, nil, event: "opened"))
        #expect(foreign.status == 404 && foreign.errorCode == "unknown_delivery" && foreign["error"]["field"].string == "deliveryId")
        let unknown = await harness.request("POST", "/v1/receipts", key: owner.clientKey, body: receipt("x2", "01a22c12-0000-7000-8000-000000000000", nil, event: "opened"))
        #expect(unknown.status == 404)
        let wrongMessage = await harness.request("POST", "/v1/receipts", key: owner.clientKey, body: receipt("x3", delivery, "01a22c12-0000-7000-8000-000000000000", event: "opened"))
        #expect(wrongMessage.status == 404)
        #expect(await harness.request("GET", "/v1/deliveries/\(delivery)", key: owner.serverKey)["state"].string == "sent")
        _ = message
    }

    @Test func aRenderedReceiptNeedsItsReportAndAnActionItsButton() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let (delivery, message) = try await harness.sentDelivery(app, message: Self.sale)
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt("a", delivery, message, event: "rendered"))["error"]["field"].string == "render")
        #expect(await harness.request("POST", "/v1/receipts", key: app.clientKey, body: receipt("b", delivery, message, event: "action"))["error"]["field"].string == "actionId")
    }

    @Test func deliveryLogPagesWithACursorAndFiltersByState() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        for number in 1...5 { try await harness.registerDevice(app, number: number) }
        let message = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        var seen: [String] = []
        var cursor: String?
        repeat {
            let page = await harness.request("GET", "/v1/messages/\(message)/deliveries?limit=2" + (cursor.map { "&cursor=" + $0 } ?? ""), key: app.serverKey)
            seen += page["items"].array.compactMap { $0["id"].string }
            cursor = page["nextCursor"].string
        } while cursor != nil
        #expect(seen.count == 5 && Set(seen).count == 5)
        #expect(await harness.request("GET", "/v1/messages/\(message)/deliveries?state=failed", key: app.serverKey)["items"].array.isEmpty)
    }
}
