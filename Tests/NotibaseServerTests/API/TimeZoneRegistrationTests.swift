import NotibaseCore
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

/// A time zone the server does not know is refused when the device registers (so a message sent
/// at each device's local time never meets one), on every registration path.
@Suite("Time zones at registration")
struct TimeZoneRegistrationTests {
    @Test(arguments: ["Mars/Olympus_Mons", "europe/paris", "GMT+2", "Paris"])
    func anUnknownZoneIsRefusedAndNothingIsStored(_ zone: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        // The quick path (a plain body), the strict decoder (an escaped key makes the body not
        // plain), and the batch import.
        let bodies = [
            #"{"platform": "ios", "token": "\#(Harness.token(1))", "timeZone": "\#(zone)"}"#,
            #"{"platform": "ios", "token": "\#(Harness.token(1))", "time\u005aone": "\#(zone)"}"#,
        ]
        for body in bodies {
            let reply = await harness.request("POST", "/v1/devices", key: app.clientKey, body: body)
            #expect(reply.status == 400 && reply.errorCode == "invalid_field" && reply["error"]["field"].string == "timeZone", "\(reply.text)")
        }
        let batch = await harness.request("POST", "/v1/devices/batch", key: app.serverKey, body: #"""
            {"devices": [{"platform": "ios", "token": "\#(Harness.token(2))", "timeZone": "Europe/Paris"},
                         {"platform": "ios", "token": "\#(Harness.token(3))", "timeZone": "\#(zone)"}]}
            """#)
        #expect(batch.status == 400 && batch["error"]["field"].string?.hasSuffix("timeZone") == true, "\(batch.text)")
        #expect(await harness.request("GET", "/v1/devices", key: app.serverKey)["items"].array.isEmpty)
    }

    @Test(arguments: ["Europe/Paris", "Asia/Kathmandu", "America/St_Johns", "UTC", "Etc/UTC"])
    func aZoneOfTheDatabaseIsStoredAsGiven(_ zone: String) async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let reply = await harness.request("POST", "/v1/devices", key: app.clientKey, body: #"{"platform": "ios", "token": "\#(Harness.token(1))", "timeZone": "\#(zone)"}"#)
        #expect(reply.status == 201 && reply["timeZone"].string == zone, "\(reply.text)")
        let batch = await harness.request("POST", "/v1/devices/batch", key: app.serverKey, body: #"{"devices": [{"platform": "ios", "token": "\#(Harness.token(2))", "timeZone": "\#(zone)"}]}"#)
        #expect(batch.status == 200 || batch.status == 201, "\(batch.text)")
    }
}
