import Foundation
import Testing
import NotibaseCore

/// The registration body both the SDK (encoding) and the server (decoding) use.
@Suite("Device registration request")
struct DeviceRegistrationRequestTests {
    @Test func absentFieldsAreLeftOut() throws {
        let data = try JSONEncoder().encode(DeviceRegistrationRequest(platform: .ios, token: "ab"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["platform", "token"])
        #expect(object["platform"] as? String == "ios")
    }

    @Test func everyFieldRoundTripsUnderItsDocumentedName() throws {
        let request = DeviceRegistrationRequest(
            platform: .android, token: "t", externalUserId: "u", externalUserIdToken: "nbid1.x", tags: ["a"], locale: "fr-FR", timeZone: "Europe/Paris",
            appVersion: "3.1", sdkVersion: "1.0", previousToken: "old", apnsEnvironment: "sandbox")
        let data = try JSONEncoder().encode(request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == Set(DeviceRegistrationRequest.CodingKeys.allCases.map(\.stringValue)))
        #expect(Set(object.keys) == ["platform", "token", "externalUserId", "externalUserIdToken", "tags", "locale", "timeZone", "appVersion", "sdkVersion", "previousToken", "apnsEnvironment"])
        #expect(try JSONDecoder().decode(DeviceRegistrationRequest.self, from: data) == request)
    }
}
