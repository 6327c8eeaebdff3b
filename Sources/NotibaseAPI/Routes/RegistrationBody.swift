import Foundation
package import NotibaseCore
import NotibaseSenders
package import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// The body of a device registration: `{"platform", "token", "externalUserId",
/// "externalUserIdToken", "tags", "locale", "timeZone", "appVersion", "sdkVersion", "previousToken"}`. `previousToken` is the token this one
/// replaces (APNs rotates tokens): the device registered under it is deactivated.
///
/// Registration is the API's busiest route, so its bodies, single and batch, are read by one
/// hand-written reader (``RegistrationReader``), which names the field that is wrong itself: with
/// the strict `Codable` decoder the route answered half as many registrations a second
/// (docs/decisions/0034, 0038). Both handlers of the single route take ``decode(_:)``.
package enum RegistrationBody {
    /// The fields, as JSON has them: the core's request type, which the SDK sends.
    package typealias Fields = DeviceRegistrationRequest

    /// A field that is wrong, and why.
    package struct Problem: Error {
        package var field: String
        package var message: String
    }

    /// The registration in a request body.
    package static func decode(_ request: HTTPRequest) throws -> DeviceUpsert {
        try JSON.checkBody(request)
        return try checked(RegistrationReader.registration(in: request.body), at: "")
    }

    /// The registrations of a batch body (`{"devices": [...]}`, 1 to 10,000), each checked; the
    /// first that is wrong answers for the body, its fields named `devices[3].token`.
    package static func decodeBatch(_ request: HTTPRequest) throws -> [DeviceUpsert] {
        try JSON.checkBody(request)
        return try RegistrationReader.batch(in: request.body, checked)
    }

    /// `fields` validated, a problem answered naming the field under `path`.
    private static func checked(_ fields: Fields, at path: String) throws -> DeviceUpsert {
        do {
            return try validate(fields)
        } catch let problem as Problem {
            throw APIError.invalid(path.isEmpty ? problem.field : "\(path).\(problem.field)", problem.message)
        }
    }

    /// The rules the OpenAPI document states for each field.
    package static func validate(_ fields: Fields) throws -> DeviceUpsert {
        func require(_ condition: Bool, _ field: Fields.CodingKeys, _ message: String) throws {
            if !condition { throw Problem(field: field.stringValue, message: message) }
        }
        // Every field here is an identifier: none holds a control character.
        func length(_ value: String?, _ range: ClosedRange<Int>) -> Bool {
            value.map { range.contains($0.unicodeScalars.count) && !$0.hasControlCharacters } ?? true
        }
        let token = fields.token
        switch fields.platform {
        case .ios:
            try require(isAPNsToken(token), .token, "must be the APNs device token in hexadecimal (64 to 200 digits)")
        case .android:
            try require((16...4096).contains(token.utf8.count) && token.utf8.allSatisfy { (0x21...0x7e).contains($0) }, .token,
                        "must be the FCM registration token (16 to 4096 printable ASCII characters, no spaces)")
        }
        let tags = fields.tags
        try require((tags ?? []).count <= 100 && (tags ?? []).allSatisfy { length($0, 1...64) }, .tags, "must be at most 100 tags of 1 to 64 characters, none a control character")
        try require(length(fields.externalUserId, 1...256), .externalUserId, "must be 1 to 256 characters, none a control character")
        try require(length(fields.externalUserIdToken, 1...256), .externalUserIdToken, "must be the identity token your backend got for this user ID")
        try require(fields.locale.map(isLocale) ?? true, .locale, "must be a locale such as en, fr-FR or pt_BR")
        // Refused here, not when a message is sent at each device's local time: a name the
        // system's time-zone database does not know could never be scheduled.
        try require(fields.timeZone.map(ZoneClock.isKnown) ?? true, .timeZone,
                    "must be a time zone of the IANA database this server knows, spelled as it is (such as Europe/Paris, America/New_York or UTC)")
        try require(length(fields.appVersion, 1...64), .appVersion, "must be 1 to 64 characters, none a control character")
        try require(length(fields.sdkVersion, 1...64), .sdkVersion, "must be 1 to 64 characters, none a control character")
        try require(length(fields.previousToken, 1...4096), .previousToken, "must be the token this registration replaces")
        let apnsEnvironment = fields.apnsEnvironment.map(APNsEnvironment.init(name:))
        try require(apnsEnvironment != .some(nil), .apnsEnvironment, APNsEnvironment.namesExplained)
        try require(apnsEnvironment == nil || fields.platform == .ios, .apnsEnvironment, "is for iOS devices only: leave it out for Android")
        return DeviceUpsert(
            platform: fields.platform, token: fields.platform == .ios ? token.lowercased() : token, externalUserID: fields.externalUserId,
            identityToken: fields.externalUserId == nil ? nil : fields.externalUserIdToken,
            tags: tags.map { $0.count < 2 ? $0 : Array(Set($0)).sorted() }, locale: fields.locale, timeZone: fields.timeZone,
            appVersion: fields.appVersion, sdkVersion: fields.sdkVersion,
            previousToken: fields.previousToken.map { fields.platform == .ios ? $0.lowercased() : $0 }, apnsEnvironment: apnsEnvironment ?? nil)
    }

    /// An APNs token in hexadecimal (either case): an even number of digits, as many as `digits` allows.
    package static func isAPNsToken(_ token: String, digits: ClosedRange<Int> = 64...200) -> Bool {
        digits.contains(token.utf8.count) && token.utf8.count % 2 == 0
            && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }
    }

    /// A locale such as `en`, `fr-FR` or `pt_BR` (ASCII letters, digits, `-` and `_`).
    package static func isLocale(_ text: String) -> Bool {
        (2...35).contains(text.utf8.count) && text.utf8.first.map { (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) } == true
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) || $0 == 0x2d || $0 == 0x5f }
    }
}
