import Foundation
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

/// A stream row's events as the dispatcher reads them, and a batch's body, alone (no store: the
/// PostgreSQL pass skips it).
@Suite struct WebhookStreamRowTests {
    /// Five sends of app `a`'s message `m` in one row (as lines: the one format of a row of
    /// several events), numbered 11 to 15, the first with ID …000000000ffe.
    let row = WebhookFeed.StreamRow(
        last: 15, id: "0b8f4c2e-1d3a-4e5b-8c6d-000000000ffe", type: "delivery.sent", at: 1_765_000_000_123,
        data: WebhookSendLines.row((1...5).map {
            WebhookSendLines.Line(messageID: "m", values: WebhookSendLines.values(deliveryID: "d\($0)", providerID: nil, deviceID: nil, externalUserID: nil, platform: nil))
        }), count: 5, appID: "a")

    /// Send `n`'s event `data` in ``row``.
    static func data(_ n: Int) -> String {
        WebhookFeed.sentData(appID: "a", deliveryID: "d\(n)", providerID: nil, deviceID: nil, externalUserID: nil, messageID: "m", platform: nil)
    }

    @Test func eachEventOfARowHasTheFirstIDPlusItsPlaceModulo48Bits() {
        #expect(row.events.map(\.id) == [
            "0b8f4c2e-1d3a-4e5b-8c6d-000000000ffe", "0b8f4c2e-1d3a-4e5b-8c6d-000000000fff", "0b8f4c2e-1d3a-4e5b-8c6d-000000001000",
            "0b8f4c2e-1d3a-4e5b-8c6d-000000001001", "0b8f4c2e-1d3a-4e5b-8c6d-000000001002",
        ])
        #expect(WebhookFeed.eventID("0b8f4c2e-1d3a-4e5b-8c6d-ffffffffffff", 1) == "0b8f4c2e-1d3a-4e5b-8c6d-000000000000", "past 48 bits it wraps")
        #expect(WebhookFeed.eventID("not-a-uuid", 3) == "not-a-uuid")
        #expect(row.events.map(\.seq) == Array(11...15))
        #expect(row.events.map(\.data) == (1...5).map(Self.data))
        #expect(Self.data(1) == #"{"appId":"a","deliveryId":"d1","details":{},"messageId":"m"}"#)
    }

    /// A read that starts or ends inside a row, or wants only a few, gets exactly those events,
    /// with the numbers and IDs a whole read gives them.
    @Test(arguments: [(Int.min, nil, Int.max), (12, nil, Int.max), (10, 13, Int.max), (11, 15, 2), (14, nil, 10), (15, nil, 10), (9, 11, 5), (12, 12, 5)] as [(Int, Int?, Int)])
    func aPartOfARowIsThatPartOfItsEvents(after: Int, through: Int?, most: Int) {
        let expected = Array(row.events.filter { $0.seq > after && $0.seq <= (through ?? .max) }.prefix(most))
        #expect(row.events(after: after, through: through, most: most) == expected)
    }

    /// Sends stored as lines (SQLite's record) read as the text the event's encoder writes: the
    /// row's app, each line's message (left out of a line when the one before has the same),
    /// values escaped once and copied as they are, what is missing left out; and a part of the row
    /// is that part of its events.
    @Test func sendsStoredAsLinesReadAsTheirEventsText() throws {
        typealias Send = (message: String, delivery: String, provider: String?, device: String?, user: String?, platform: String?)
        let sends: [Send] = [
            ("m1", "d1", "p-1", "dev-1", #"user "7"/\é"#, "ios"), ("m1", "d2", nil, nil, nil, nil), ("m2", "d,3", "p\n3", "dev,3", "null", "android"),
            ("m2", "d4", "", "dev-4", "", "ios"), ("m1", "d5", "p-5", "dev-5", "u5", "ios"),
        ]
        let app = #"app "a""#
        let data = WebhookSendLines.row(sends.map {
            WebhookSendLines.Line(
                messageID: $0.message,
                values: WebhookSendLines.values(deliveryID: $0.delivery, providerID: $0.provider, deviceID: $0.device, externalUserID: $0.user, platform: $0.platform))
        })
        let lines = WebhookFeed.StreamRow(last: 15, id: row.id, type: "delivery.sent", at: row.at, data: data, count: 5, appID: app)
        #expect(data.count < sends.map { WebhookFeed.sentData(
            appID: app, deliveryID: $0.delivery, providerID: $0.provider, deviceID: $0.device, externalUserID: $0.user, messageID: $0.message,
            platform: $0.platform) }.joined(separator: "\n").count / 2, "under half the JSON's size")
        let events = lines.events
        #expect(events.map(\.data) == sends.map {
            WebhookFeed.sentData(
                appID: app, deliveryID: $0.delivery, providerID: $0.provider, deviceID: $0.device, externalUserID: $0.user, messageID: $0.message,
                platform: $0.platform)
        })
        let decoded = try events.map { try #require(StoredJSON.decode(WebhookEventData.self, $0.data)) }
        #expect(decoded.map(\.externalUserId) == sends.map(\.user) && decoded.map(\.details?.providerID) == sends.map(\.provider))
        #expect(events.map(\.id) == row.events.map(\.id) && events.map(\.seq) == Array(11...15))
        for (after, through, most) in [(12, nil, Int.max), (10, 13, Int.max), (11, 15, 2), (14, nil, 10), (12, 12, 5)] as [(Int, Int?, Int)] {
            #expect(lines.events(after: after, through: through, most: most) == Array(events.filter { $0.seq > after && $0.seq <= (through ?? .max) }.prefix(most)))
        }
        // Written into a body from the line, and measured without being made: the same bytes.
        for event in events + lines.events(after: 12, through: 14, most: 10) {
            var bytes = Array("[".utf8)
            event.appendData(to: &bytes)
            #expect(bytes == Array("[".utf8) + Array(event.data.utf8))
            #expect(event.dataByteCount == event.data.utf8.count)
        }
        let body = WebhookBatchBody.encode(events, at: row.at)
        let sent = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let sentData = try #require(((sent["data"] as? [String: Any])?["events"] as? [[String: Any]])?.map { $0["data"] as? [String: Any] })
        #expect(sentData.map { $0?["deliveryId"] as? String } == sends.map(\.delivery))
        #expect(sentData.map { $0?["externalUserId"] as? String } == sends.map(\.user))
    }

    /// A row written a send at a time (as a worker makes it before the record) is the row of its
    /// lines, and its lines read back are what it was made of: a record that finds some sends
    /// were sent before keeps the others' lines, each under its own message, with nothing
    /// rendered again.
    @Test func aRowsLinesReadBackAsTheyWereWrittenAndAnyOfThemMakeARow() throws {
        typealias Send = (message: String, delivery: String, provider: String?, device: String?, user: String?, platform: String?)
        let sends: [Send] = [
            (#"m"1"#, "d1", "p-1", "dev-1", #"user "7"/\é"#, "ios"), (#"m"1"#, "d2", nil, nil, nil, nil), ("m,2", "d,3", "p\n3", "dev,3", "null", "android"),
            ("m,2", "d4", "", "dev-4", "", "ios"), (#"m"1"#, "d5", "p-5", "dev-5", "u5", "ios"),
        ]
        var built = WebhookSendLines.Row()
        for send in sends {
            built.append(messageID: send.message, deliveryID: send.delivery, providerID: send.provider, deviceID: send.device, externalUserID: send.user, platform: send.platform)
        }
        let lines = sends.map {
            WebhookSendLines.Line(
                messageID: $0.message,
                values: WebhookSendLines.values(deliveryID: $0.delivery, providerID: $0.provider, deviceID: $0.device, externalUserID: $0.user, platform: $0.platform))
        }
        #expect(built.text == WebhookSendLines.row(lines))
        #expect(WebhookSendLines.lines(built.text) == lines)
        #expect(WebhookSendLines.lines(#"{"deliveryId":"d1"}"#) == nil, "a row of JSON lines is not a row of sends' lines")
        // Any of them, in order: a row whose events are those sends' and no others.
        let app = "app-1"
        for kept in [[1], [1, 3], [0, 2, 4], [3, 4], [0, 1, 2, 3, 4]] {
            let row = WebhookSendLines.row(kept.map { lines[$0] })
            let events = WebhookFeed.StreamRow(last: 10 + kept.count, id: self.row.id, type: "delivery.sent", at: 5, data: row, count: kept.count, appID: app).events
            #expect(events.map(\.data) == kept.map { index in
                let send = sends[index]
                return WebhookFeed.sentData(
                    appID: app, deliveryID: send.delivery, providerID: send.provider, deviceID: send.device, externalUserID: send.user, messageID: send.message,
                    platform: send.platform)
            }, "sends \(kept)")
        }
    }

    /// A body is the Standard Webhooks payload of its events, in order, each with its own time
    /// and type, and no longer than the sizes the batch was cut by.
    @Test func aBodyHoldsEachEventWithItsIDTimeAndType() throws {
        let events = row.events + [WebhookEventRecord(seq: 16, id: "e-\"16\"", type: "message.completed", at: 1_765_000_001_000, data: #"{"messageId":"m1"}"#)]
        let body = WebhookBatchBody.encode(events, at: 1_765_000_002_000)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(json["type"] as? String == "event.batch" && json["timestamp"] as? String == "2025-12-06T05:46:42Z")
        let sent = try #require((json["data"] as? [String: Any])?["events"] as? [[String: Any]])
        #expect(sent.map { $0["id"] as? String } == events.map(\.id))
        #expect(sent.map { $0["type"] as? String } == Array(repeating: "delivery.sent", count: 5) + ["message.completed"])
        #expect(sent.map { $0["timestamp"] as? String } == Array(repeating: "2025-12-06T05:46:40.123Z", count: 5) + ["2025-12-06T05:46:41Z"])
        #expect(sent.map { ($0["data"] as? [String: Any])?["deliveryId"] as? String } == (1...5).map { "d\($0)" } + [nil])
        let sizes = events.reduce(0) { $0 + WebhookBatchBody.bytes(of: $1) }
        #expect(body.count <= WebhookBatchBody.envelopeBytes + sizes && body.count >= WebhookBatchBody.envelopeBytes + sizes - 1 - 4)
    }
}
