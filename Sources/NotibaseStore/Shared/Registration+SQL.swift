import NotibaseCore
import NotibaseSenders
package import NotibaseDomain
/// What both backends' registrations bind and run alike around their upserts (``SQLExecutor``).
extension DeviceUpsert {
    /// The values of a registration's upsert: 1 the new device's ID, 2 the app, 3 the platform,
    /// 4 the token, 5 the external user, 6 the tags (JSON), 7 the locale, 8 the time zone, 9 the
    /// app's version, 10 the SDK's, 11 now, 12 whether verified users are protected (1 or 0),
    /// 13 the APNs environment.
    package func values(appID: String, newID: String, now: Int) -> [SQLParameter] {
        [.text(newID), .text(appID), .text(platform.rawValue), .text(token), .optionalText(externalUserID), .optionalText(tags.map(Rows.tagsJSON)),
         .optionalText(locale), .optionalText(timeZone), .optionalText(appVersion), .optionalText(sdkVersion), .int(now), .flag(protectsVerifiedUsers),
         .optionalText(apnsEnvironment?.rawValue)]
    }

    /// Why an upsert wrote no row: the device is a verified user's (``VerifiedUserGuard``), or the
    /// database answered nothing it should have.
    package var unwritten: any Error {
        protectsVerifiedUsers ? DeviceUpsert.claimedByAnotherUser : StorageError.corrupt("device upsert returned nothing")
    }
}

extension SQLExecutor {
    /// Deactivates the app's device of the token `registration` replaced (its previous token),
    /// unless the guard keeps it: another verified user's than `user`, the registered device's.
    package func deactivateReplacedToken(of registration: DeviceUpsert, appID: String, user: String?, now: Int) throws {
        guard let previous = registration.previousToken, previous != registration.token else { return }
        _ = try write(
            """
            UPDATE devices SET active = 0, deactivated_reason = 'replaced by a new token', deactivated_at = \(p(1)), updated_at = \(p(1))
            WHERE app_id = \(p(2)) AND platform = \(p(3)) AND token = \(p(4)) AND active = 1
                AND \(VerifiedUserGuard.sql(protects: "CAST(\(p(5)) AS INTEGER)", stored: "external_user_id", user: p(6)))
            """, [.int(now), .text(appID), .text(registration.platform.rawValue), .text(previous), .flag(registration.protectsVerifiedUsers), .optionalText(user)])
    }
}
