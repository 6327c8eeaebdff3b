import Foundation
import Testing
import NotibaseCore
import NotibaseSimulator
import NotibaseTestSupport
@testable import Notibase

/// The device's time zone goes with its registration; a zone the server cannot use never costs
/// the device its registration.
@Suite("The app SDK's time zone", .serialized)
struct TimeZoneRegistrationTests {
    private static let token = Data(repeating: 0x5a, count: 32)

    private func registeredDevice(in zone: String) async throws -> JSONValue? {
        let world = try await LiveWorld.start()
        let phone = world.fleet.addIPhone(name: "iPhone", token: DeviceRegistrationRequest.hex(Self.token))
        let client = world.client(for: phone, timeZone: { zone })
        client.registerDeviceToken(Self.token)
        #expect(await client.flushNow())
        #expect(!client.hasPendingRegistration)
        let devices = try await world.call("GET", "/v1/devices")
        await world.stop()
        return devices["items"].array.first { $0["token"].string == DeviceRegistrationRequest.hex(Self.token) }
    }

    @Test func aZoneTheServerKnowsIsRegistered() async throws {
        let device = try await registeredDevice(in: "Asia/Kathmandu")
        #expect(device?["timeZone"].string == "Asia/Kathmandu")
    }

    /// The server refuses a zone its time-zone database does not know (a zone newer than its copy
    /// of the database, as a phone's can be) with a 400 naming `timeZone`: the SDK registers again
    /// without it rather than leave the device with no registration at all.
    @Test func aZoneTheServerDoesNotKnowIsLeftOutNotTheDevice() async throws {
        let device = try await registeredDevice(in: "America/Nowhere_Yet")
        #expect(device?["active"] == true)
        #expect(device?["timeZone"] == .null)
    }
}
