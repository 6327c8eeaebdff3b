import Foundation
import NotibaseCore
import NotibaseSenders
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

/// Local-time delivery, quiet hours and rates through the API, on the harness's test clock (it
/// starts at 2027-01-15T08:00:00Z: 09:00 in Paris, 03:00 in New York, 13:45 in Kathmandu).
@Suite("Pacing: local time, quiet hours, rates")
struct PacingTests {
    /// Registers a device with the server key; returns its ID.
    func device(_ harness: Harness, _ app: TestApp, _ number: Int, zone: String?) async throws -> String {
        let extra = zone.map { #", "timeZone": "\#($0)""# } ?? ""
        return try await harness.registerDevice(app, number: number, extra: extra)
    }

    func history(_ harness: Harness, _ app: TestApp, device: String) async -> JSONValue {
        await harness.request("GET", "/v1/devices/\(device)/deliveries", key: app.serverKey)["items"][0]
    }

    func state(_ harness: Harness, _ app: TestApp, device: String) async -> String? {
        await history(harness, app, device: device)["state"].string
    }

    @Test func eachDeviceIsSentAtItsOwnLocalTimeAndCancelStopsTheRest() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        let paris = try await device(harness, app, 1, zone: "Europe/Paris")
        let newYork = try await device(harness, app, 2, zone: "America/New_York")
        let kathmandu = try await device(harness, app, 3, zone: "Asia/Kathmandu")
        let none = try await device(harness, app, 4, zone: nil)
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"""
            {"message": {"title": "Good morning"}, "audience": {"all": true}, "localTime": "10:00", "fallbackTimeZone": "Asia/Tokyo", "ttl": 3600}
            """#)
        #expect(reply.status == 202, "\(reply.text)")
        #expect(reply["localTime"].string == "10:00" && reply["fallbackTimeZone"].string == "Asia/Tokyo")
        #expect(reply["audienceSize"].int == 4 && reply["timeZoneFallbacks"].int == 1)
        let id = try #require(reply["id"].string)

        try await harness.deliverDue()
        #expect(sender.pushes.isEmpty)  // 10:00 has come nowhere yet
        var message = await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)
        #expect(message["state"].string == "sending")
        #expect(message["counts"]["waiting"].int == 4)
        // Kathmandu's 10:00 passed (13:45 there): tomorrow's, the last one.
        #expect(message["counts"]["lastDueAt"].string == "2027-01-16T04:15:00Z")

        harness.advance(3600)  // 10:00 in Paris
        try await harness.deliverDue()
        #expect(sender.pushes.count == 1)
        #expect(await state(harness, app, device: paris) == "sent")
        let entry = await history(harness, app, device: paris)["history"][1]
        #expect(entry["event"].string == "scheduled")
        #expect(entry["timeZone"].string == "Europe/Paris" && entry["localTime"].string == "2027-01-15T10:00:00")
        #expect(entry["dueAt"].string == "2027-01-15T09:00:00Z" && entry["decidedBy"] == ["localTime"])
        // The TTL counts from each device's moment: an hour after 10:00 in Paris, not after the send.
        let apns = try #require(sender.pushes.first.flatMap { if case .apns(let request) = $0.request { request } else { nil } })
        #expect(apns.header("apns-expiration") == String(1_800_000_000 + 3600 + 3600))

        harness.advance(6 * 3600)  // 15:00 UTC, 10:00 in New York
        try await harness.deliverDue()
        #expect(await state(harness, app, device: newYork) == "sent")
        let fallback = await history(harness, app, device: none)["history"][1]
        #expect(fallback["timeZone"].string == "Asia/Tokyo" && fallback["timeZoneFallback"].bool == true)
        message = await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)
        #expect(message["counts"]["waiting"].int == 2)

        // Cancelled before their moment: the two left never go.
        #expect(await harness.request("POST", "/v1/messages/\(id)/cancel", key: app.serverKey).status == 200)
        harness.advance(86_400)
        try await harness.deliverDue()
        #expect(sender.pushes.count == 2)
        #expect(await state(harness, app, device: kathmandu) == "cancelled")
        #expect(await state(harness, app, device: none) == "cancelled")
    }

    @Test func aDatedLocalTimeFansOutWhenItFirstComesAnywhere() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        let kiritimati = try await device(harness, app, 1, zone: "Pacific/Kiritimati")
        let samoa = try await device(harness, app, 2, zone: "Pacific/Pago_Pago")
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"""
            {"message": {"title": "Happy new year"}, "audience": {"all": true}, "localTime": "00:00", "localDate": "2027-01-20"}
            """#)
        #expect(reply.status == 202, "\(reply.text)")
        #expect(reply["state"].string == "scheduled" && reply["sendAt"].string == "2027-01-19T10:00:00Z")
        // Midnight on the 20th on either side of the date line: 25 hours apart.
        harness.advance(TimeInterval(ms("2027-01-19T10:00:00Z") / 1000 - 1_800_000_000))
        try await harness.deliverDue()
        #expect(await state(harness, app, device: kiritimati) == "sent")
        #expect(await state(harness, app, device: samoa) == "queued")
        harness.advance(25 * 3600 - 1)
        try await harness.deliverDue()
        #expect(await state(harness, app, device: samoa) == "queued")
        harness.advance(1)
        try await harness.deliverDue()
        #expect(await state(harness, app, device: samoa) == "sent")
    }

    @Test func quietHoursHoldADeliveryUntilTheyEndOrFailItWhenItsTTLEndsFirst() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        let patched = await harness.request("PATCH", "/v1/apps/\(app.id)", key: app.serverKey, body: #"{"quietHours": {"start": "22:00", "end": "08:00"}}"#)
        #expect(patched.status == 200 && patched["quietHours"]["start"].string == "22:00" && patched["quietHours"]["end"].string == "08:00", "\(patched.text)")
        let paris = try await device(harness, app, 1, zone: "Europe/Paris")
        let newYork = try await device(harness, app, 2, zone: "America/New_York")
        harness.advance(14.5 * 3600)  // 22:30 UTC: 23:30 in Paris, 17:30 in New York
        let short = try await harness.send(app, #"{"message": {"title": "Sale"}, "audience": {"all": true}, "quietHours": true, "ttl": 7200}"#)
        try await harness.deliverDue()
        #expect(await state(harness, app, device: newYork) == "sent")
        let failed = await history(harness, app, device: paris)
        #expect(failed["state"].string == "failed")
        let reason = failed["history"].array.first { $0["event"].string == "failed" }?["reason"].string
        #expect(reason == "its time to live ended during the app's quiet hours (22:00–08:00 in Europe/Paris), so it was not sent")
        #expect(await harness.request("GET", "/v1/messages/\(short)", key: app.serverKey)["state"].string == "completed")

        _ = try await harness.send(app, #"{"message": {"title": "Sale"}, "audience": {"deviceIds": ["\#(paris)"]}, "quietHours": true, "ttl": 43200}"#)
        try await harness.deliverDue()
        let waiting = await harness.request("GET", "/v1/devices/\(paris)/deliveries", key: app.serverKey)["items"][1]
        #expect(waiting["state"].string == "queued")
        #expect(waiting["history"][1]["decidedBy"] == ["quietHours"] && waiting["history"][1]["localTime"].string == "2027-01-16T08:00:00")
        harness.advance(8.5 * 3600 - 1)  // 06:59:59 UTC
        try await harness.deliverDue()
        #expect(sender.pushes.count == 1)
        harness.advance(1)
        try await harness.deliverDue()
        #expect(sender.pushes.count == 2)

        // Removed: a message asking for them is refused.
        #expect(await harness.request("PATCH", "/v1/apps/\(app.id)", key: app.serverKey, body: #"{"quietHours": null}"#)["quietHours"] == .null)
        let refused = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "x"}, "audience": {"all": true}, "quietHours": true}"#)
        #expect(refused.status == 400 && refused["error"]["field"].string == "quietHours")
    }

    /// A throttled campaign and an urgent message at the same moment: the urgent one goes at once,
    /// the campaign at its rate.
    @Test func anUrgentMessageNeverWaitsBehindAThrottledCampaign() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender)
        let app = try await harness.createApp()
        let devices = (1...300).map { #"{"platform": "ios", "token": "\#(Harness.token($0))"}"# }.joined(separator: ",")
        #expect(await harness.request("POST", "/v1/devices/batch", key: app.serverKey, body: #"{"devices": [\#(devices)]}"#).status == 200)
        let someone = try await harness.registerDevice(app, number: 1)
        let campaign = try await harness.send(app, #"{"message": {"title": "Sale"}, "audience": {"all": true}, "ratePerMinute": 60}"#)
        let urgent = try await harness.send(app, #"{"message": {"title": "Your code is 123456"}, "audience": {"deviceIds": ["\#(someone)"]}}"#)
        func sent(_ id: String) async -> Int {
            await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)["counts"]["byState"]["sent"].int ?? 0
        }
        try await harness.deliverDue()
        #expect(await sent(urgent) == 1)
        #expect(await sent(campaign) == 1)
        var total = 1
        for _ in 0..<12 {
            harness.advance(5)
            try await harness.deliverDue()
            let now = await sent(campaign)
            #expect(now - total == 5)  // a second apart: five in five seconds, never a burst
            total = now
        }
        let message = await harness.request("GET", "/v1/messages/\(campaign)", key: app.serverKey)
        #expect(message["ratePerMinute"].int == 60 && message["counts"]["waiting"].int == 300 - 61)
        #expect(message["counts"]["lastDueAt"].string == "2027-01-15T08:04:59Z")
    }

    @Test func theAppsDefaultRatePacesMessagesThatNameNone() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let patched = await harness.request("PATCH", "/v1/apps/\(app.id)", key: app.serverKey, body: #"{"defaultRatePerMinute": 120}"#)
        #expect(patched["defaultRatePerMinute"].int == 120)
        #expect(await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["defaultRatePerMinute"].int == 120)
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "x"}, "audience": {"all": true}}"#)
        #expect(reply["ratePerMinute"].int == 120)
        let own = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "x"}, "audience": {"all": true}, "ratePerMinute": 10}"#)
        #expect(own["ratePerMinute"].int == 10)
        #expect(await harness.request("PATCH", "/v1/apps/\(app.id)", key: app.serverKey, body: #"{"defaultRatePerMinute": 0}"#).status == 400)
    }

    @Test(arguments: [
        (#""localTime": "9:00""#, "localTime"),
        (#""localTime": "24:00""#, "localTime"),
        (#""localTime": "09:00", "sendAt": "2027-01-15T09:00:00Z""#, "localTime"),
        (#""localDate": "2027-01-16""#, "localDate"),
        (#""localTime": "09:00", "localDate": "2027-02-30""#, "localDate"),
        (#""localTime": "09:00", "localDate": "2027-01-13""#, "localDate"),  // over everywhere
        (#""localTime": "09:00", "localDate": "2027-03-01""#, "localDate"),  // beyond 30 days
        (#""localTime": "09:00", "fallbackTimeZone": "Mars/Olympus_Mons""#, "fallbackTimeZone"),
        (#""ratePerMinute": 0"#, "ratePerMinute"),
        (#""ratePerMinute": 1000001"#, "ratePerMinute"),
        (#""quietHours": "yes""#, "quietHours"),
    ])
    func badPacingIsRefusedNamingTheFieldAndNothingIsStored(fields: String, field: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "x"}, "audience": {"all": true}, \#(fields)}"#)
        #expect(reply.status == 400 && reply["error"]["field"].string == field, "\(reply.text)")
        #expect(await harness.request("GET", "/v1/messages", key: app.serverKey)["items"].array.isEmpty)
    }

    @Test(arguments: [
        (#"{"quietHours": {"start": "22:00", "end": "22:00"}}"#, "quietHours.end"),
        (#"{"quietHours": {"start": "22:00"}}"#, "quietHours.end"),
        (#"{"quietHours": {"start": "10pm", "end": "08:00"}}"#, "quietHours.start"),
        (#"{"quietHours": {"start": "22:00", "end": "08:00", "days": 5}}"#, "quietHours.days"),
        (#"{"defaultRatePerMinute": -1}"#, "defaultRatePerMinute"),
    ])
    func badAppPacingIsRefusedNamingTheField(body: String, field: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("PATCH", "/v1/apps/\(app.id)", key: app.serverKey, body: body)
        #expect(reply.status == 400 && reply["error"]["field"].string == field, "\(reply.text)")
        #expect(await harness.request("GET", "/v1/apps/\(app.id)", key: app.serverKey)["quietHours"] == .null)
    }
}
