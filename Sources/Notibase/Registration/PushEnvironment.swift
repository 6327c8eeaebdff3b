public import Foundation

/// The APNs environment a device's token belongs to. A development build (run from Xcode) gets
/// sandbox tokens; TestFlight and App Store builds get production tokens. The server sends each
/// device to its own environment, so one Notibase app serves both kinds of build.
public enum PushEnvironment: String, Sendable, Hashable, CaseIterable {
    /// `api.sandbox.push.apple.com`: development builds (`aps-environment` = `development`).
    case sandbox
    /// `api.push.apple.com`: TestFlight and App Store builds (`aps-environment` = `production`).
    case production

    /// The environment the app's provisioning profile grants (its `aps-environment`
    /// entitlement), read from `embedded.mobileprovision` in `bundle`; nil where there is none
    /// (the Simulator, a Mac build, an app without the Push Notifications capability).
    public static func fromProvisioningProfile(in bundle: Bundle = .main) -> PushEnvironment? {
        guard let url = bundle.url(forResource: "embedded", withExtension: "mobileprovision"),
              let profile = try? Data(contentsOf: url) else { return nil }
        return fromProvisioningProfile(profile)
    }

    /// The environment a provisioning profile's bytes grant, or nil. A profile is a CMS-signed
    /// property list: the plist sits in the clear between `<?xml` and `</plist>`, and its
    /// `Entitlements` hold `aps-environment` (`development` or `production`).
    public static func fromProvisioningProfile(_ profile: Data) -> PushEnvironment? {
        let bytes = [UInt8](profile)
        guard let start = find(Array("<?xml".utf8), in: bytes, from: 0),
              let close = find(Array("</plist>".utf8), in: bytes, from: start),
              case let end = close + "</plist>".utf8.count,
              let plist = try? PropertyListSerialization.propertyList(from: Data(bytes[start..<end]), format: nil) as? [String: Any],
              let entitlements = plist["Entitlements"] as? [String: Any],
              let value = entitlements["aps-environment"] as? String else { return nil }
        switch value {
        case "development": return .sandbox
        case "production": return .production
        default: return nil
        }
    }

    /// Where `needle` first starts in `bytes` at or after `from`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= needle.count, from <= bytes.count - needle.count else { return nil }
        return (from...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
