import Foundation
import Testing
import NotibaseCore
import NotibaseSimulator
import NotibaseTestSupport
@testable import Notibase

/// The SDK knows its build's APNs environment from the `aps-environment` entitlement of its
/// provisioning profile, and says so in its registration.
@Suite("The app SDK's APNs environment", .serialized)
struct PushEnvironmentTests {
    /// A profile as Xcode embeds it: the plist between the CMS envelope's binary bytes.
    static func profile(apsEnvironment: String?) -> Data {
        let entitlement = apsEnvironment.map { "<key>aps-environment</key>\n\t\t<string>\($0)</string>\n\t\t" } ?? ""
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>AppIDName</key>
            \t<string>Shop</string>
            \t<key>Entitlements</key>
            \t<dict>
            \t\t\(entitlement)<key>application-identifier</key>
            \t\t<string>TEAM123456.com.example.shop</string>
            \t\t<key>get-task-allow</key>
            \t\t<true/>
            \t</dict>
            \t<key>Name</key>
            \t<string>Shop Development</string>
            \t<key>TeamIdentifier</key>
            \t<array><string>TEAM123456</string></array>
            </dict>
            </plist>
            """
        // A CMS SignedData header before, the signer's certificates and signature after: bytes
        // that are not UTF-8 and hold no plist.
        let envelope: [UInt8] = [0x30, 0x80, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02, 0xa0, 0x80, 0xff, 0xfe, 0x00]
        return Data(envelope + Array(plist.utf8) + [0x00, 0x00, 0xa0, 0x82, 0x0b, 0xc7, 0xff] + Array("<string>production</string>".utf8))
    }

    @Test func aDevelopmentProfileIsTheSandboxAndADistributionOneProduction() {
        #expect(PushEnvironment.fromProvisioningProfile(Self.profile(apsEnvironment: "development")) == .sandbox)
        #expect(PushEnvironment.fromProvisioningProfile(Self.profile(apsEnvironment: "production")) == .production)
    }

    @Test func noEntitlementOrNoProfileIsNoEnvironment() {
        #expect(PushEnvironment.fromProvisioningProfile(Self.profile(apsEnvironment: nil)) == nil)
        #expect(PushEnvironment.fromProvisioningProfile(Data([0x30, 0x80, 0xff])) == nil)
        #expect(PushEnvironment.fromProvisioningProfile(Data("<?xml version=\"1.0\"?><plist>".utf8)) == nil)
        // The Simulator has no embedded.mobileprovision, nor has this test bundle.
        #expect(PushEnvironment.fromProvisioningProfile(in: Bundle.main) == nil)
    }

    /// Read from the app bundle's `embedded.mobileprovision`.
    @Test func theProfileIsReadFromTheBundle() throws {
        let directory = TemporaryDirectory("notibase-bundle")
        let bundleURL = directory.url.appendingPathComponent("Shop.app")
        try FileManager.default.createDirectory(at: bundleURL, withIntermediateDirectories: true)
        try Self.profile(apsEnvironment: "development").write(to: bundleURL.appendingPathComponent("embedded.mobileprovision"))
        let bundle = try #require(Bundle(url: bundleURL))
        #expect(PushEnvironment.fromProvisioningProfile(in: bundle) == .sandbox)
    }

    /// The registration carries it, and the server stores it for the device.
    @Test(arguments: [PushEnvironment.sandbox, .production])
    func theRegistrationSaysWhichEnvironment(environment: PushEnvironment) async throws {
        let token = Data(repeating: 0x6b, count: 32)
        let world = try await LiveWorld.start()
        let phone = world.fleet.addIPhone(name: "iPhone", token: DeviceRegistrationRequest.hex(token))
        let client = world.client(for: phone, pushEnvironment: environment)
        client.registerDeviceToken(token)
        #expect(await client.flushNow())
        let devices = try await world.call("GET", "/v1/devices")
        await world.stop()
        let device = devices["items"].array.first { $0["token"].string == DeviceRegistrationRequest.hex(token) }
        #expect(device?["apnsEnvironment"].string == environment.rawValue)
    }
}
