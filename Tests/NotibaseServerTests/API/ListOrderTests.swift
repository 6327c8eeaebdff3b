import Foundation
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

/// The long lists (a device's deliveries, a message's deliveries, devices, messages) read newest
/// first with `order=newest`, page on in that order to the end, and say how many they hold with
/// `total=true`; without those parameters they answer as 0.1.0 did.
@Suite("List order")
struct ListOrderTests {
    /// Every page of `path` (which already has a `?`) read with `nextCursor` to the end: the
    /// items' `field`, and each page's `total`.
    static func pages(_ harness: Harness, _ app: TestApp, _ path: String, field: String = "id") async throws -> (values: [String], totals: [Int?]) {
        var values: [String] = []
        var totals: [Int?] = []
        var cursor: String?
        repeat {
            let page = await harness.request("GET", path + (cursor.map { "&cursor=" + $0 } ?? ""), key: app.serverKey)
            try #require(page.status == 200, "\(page.text)")
            values += page["items"].array.compactMap { $0[field].string }
            totals.append(page["total"].int)
            cursor = page["nextCursor"].string
            try #require(totals.count < 100, "the pages never ended")
        } while cursor != nil
        return (values, totals)
    }

    /// The top-level keys of an answer.
    static func keys(_ reply: Reply) -> Set<String> {
        guard case .object(let object) = reply.json else { return [] }
        return Set(object.keys)
    }

    @Test func aDevicesDeliveriesReadNewestFirstToTheEndWithTheirCount() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let device = try await harness.registerDevice(app, number: 1)
        let other = try await harness.registerDevice(app, number: 2)
        var sent: [String] = []
        for number in 1...7 {
            sent.append(try await harness.send(app, #"{"message": {"title": "Bulk \#(number)"}, "audience": {"deviceIds": ["\#(device)"]}}"#))
            _ = try await harness.send(app, #"{"message": {"title": "Other \#(number)"}, "audience": {"deviceIds": ["\#(other)"]}}"#)
        }
        let path = "/v1/devices/\(device)/deliveries"

        // 0.1.0: oldest first, no total, and a cursor only after a full page.
        let plain = await harness.request("GET", path, key: app.serverKey)
        #expect(plain["items"].array.compactMap { $0["messageId"].string } == sent)
        #expect(Self.keys(plain) == ["items"])
        let oldPages = try await Self.pages(harness, app, path + "?limit=3", field: "messageId")
        #expect(oldPages.values == sent && oldPages.totals == [nil, nil, nil])

        // Newest first, three at a time to the end: every delivery once, the newest on top, the
        // count on every page.
        let newest = try await Self.pages(harness, app, path + "?order=newest&limit=3&total=true", field: "messageId")
        #expect(newest.values == sent.reversed())
        #expect(newest.totals == [7, 7, 7])
        // A full last page gives a cursor to an empty page, which still says how many there are.
        let exact = try await Self.pages(harness, app, path + "?order=newest&limit=7&total=true", field: "messageId")
        #expect(exact.values == sent.reversed() && exact.totals == [7, 7])

        try await harness.deliverDue()
        let sentOnes = await harness.request("GET", path + "?order=newest&state=sent&limit=2&total=true", key: app.serverKey)
        #expect(sentOnes["total"].int == 7)
        #expect(sentOnes["items"].array.compactMap { $0["messageId"].string } == Array(sent.reversed().prefix(2)))
        #expect(await harness.request("GET", path + "?order=newest&state=queued&total=true", key: app.serverKey)["total"].int == 0)
        #expect(await harness.request("GET", "/v1/devices/nope/deliveries?total=true", key: app.serverKey).status == 404)
    }

    @Test func aMessagesDeliveriesReadNewestFirstToTheEndWithTheirCount() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevices(7, in: app)
        let message = try await harness.send(app, #"{"message": {"title": "All"}, "audience": {"all": true}}"#)
        try await harness.deliverDue()
        let path = "/v1/messages/\(message)/deliveries"

        let oldest = try await Self.pages(harness, app, path + "?limit=100")
        #expect(oldest.values.count == 7 && oldest.totals == [nil])
        #expect(Self.keys(await harness.request("GET", path, key: app.serverKey)) == ["items"])
        let newest = try await Self.pages(harness, app, path + "?order=newest&limit=2&total=true")
        #expect(newest.values == oldest.values.reversed())
        #expect(newest.totals == [7, 7, 7, 7])
        // `order=oldest` is the default said out loud.
        #expect(try await Self.pages(harness, app, path + "?order=oldest&limit=2").values == oldest.values)
        #expect(await harness.request("GET", path + "?total=true&state=sent", key: app.serverKey)["total"].int == 7)
        #expect(await harness.request("GET", path + "?total=true&state=failed", key: app.serverKey)["total"].int == 0)
    }

    @Test func devicesReadNewestFirstToTheEndActiveOrNotWithTheirCount() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        var registered: [String] = []
        for number in 1...6 { registered.append(try await harness.registerDevice(app, number: number)) }
        // Devices 2 and 4 give way to new tokens (7 and 8): inactive among active ones.
        registered.append(try await harness.registerDevice(app, number: 7, extra: #", "previousToken": "\#(Harness.token(2))""#))
        registered.append(try await harness.registerDevice(app, number: 8, extra: #", "previousToken": "\#(Harness.token(4))""#))
        #expect(await harness.request("GET", "/v1/devices/\(registered[1])", key: app.serverKey)["active"].bool == false)

        let plain = await harness.request("GET", "/v1/devices", key: app.serverKey)
        #expect(plain["items"].array.compactMap { $0["id"].string } == registered)
        #expect(Self.keys(plain) == ["items"])
        for limit in [1, 3, 8] {
            let newest = try await Self.pages(harness, app, "/v1/devices?order=newest&limit=\(limit)&total=true")
            #expect(newest.values == registered.reversed(), "limit \(limit)")
            #expect(Set(newest.totals) == [8], "limit \(limit)")
        }
        let active = try await Self.pages(harness, app, "/v1/devices?order=newest&active=true&limit=4&total=true")
        #expect(active.values == registered.reversed().filter { $0 != registered[1] && $0 != registered[3] })
        #expect(Set(active.totals) == [6])
        let oldest = try await Self.pages(harness, app, "/v1/devices?order=oldest&limit=3")
        #expect(oldest.values == registered)
    }

    @Test func messagesReadEitherWayWithTheirCount() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        _ = try await harness.registerDevice(app, number: 1)
        var sent: [String] = []
        for number in 1...5 { sent.append(try await harness.send(app, #"{"message": {"title": "M\#(number)"}, "audience": {"all": true}}"#)) }

        let plain = await harness.request("GET", "/v1/messages", key: app.serverKey)
        #expect(plain["items"].array.compactMap { $0["id"].string } == sent.reversed())
        #expect(Self.keys(plain) == ["items"])
        let newest = try await Self.pages(harness, app, "/v1/messages?order=newest&limit=2&total=true")
        #expect(newest.values == sent.reversed() && Set(newest.totals) == [5])
        #expect(try await Self.pages(harness, app, "/v1/messages?limit=2").values == sent.reversed())
        #expect(try await Self.pages(harness, app, "/v1/messages?order=oldest&limit=2").values == sent)
    }

    @Test(arguments: ["/v1/devices", "/v1/messages", "/v1/devices/DEVICE/deliveries", "/v1/messages/MESSAGE/deliveries"])
    func badOrderCursorOrTotalIs400NamingTheField(_ template: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let device = try await harness.registerDevice(app, number: 1)
        let message = try await harness.send(app, #"{"message": {"title": "x"}, "audience": {"all": true}}"#)
        let path = template.replacingOccurrences(of: "DEVICE", with: device).replacingOccurrences(of: "MESSAGE", with: message)
        for (query, field) in [("order=sideways", "order"), ("order=NEWEST", "order"), ("order=newest&cursor=abc", "cursor"), ("cursor=-1", "cursor"), ("total=yes", "total")] {
            let reply = await harness.request("GET", path + "?" + query, key: app.serverKey)
            #expect(reply.status == 400, "\(path)?\(query)")
            #expect(reply["error"]["field"].string == field, "\(path)?\(query): \(reply.text)")
        }
        #expect(await harness.request("GET", path + "?order=newest&total=false", key: app.serverKey).status == 200)
    }
}
