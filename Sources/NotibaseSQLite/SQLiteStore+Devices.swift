import Foundation
package import NotibaseDomain
import NotibaseStore

extension SQLiteStore {

    private static let insertDevice = """
        INSERT INTO devices (id, app_id, platform, token, external_user_id, tags, locale, time_zone, app_version, sdk_version, created_at, updated_at, apns_environment)
        VALUES (?1, ?2, ?3, ?4, ?5, coalesce(?6, '[]'), ?7, ?8, ?9, ?10, ?11, ?11, ?13)
        """

    private static let insertNewDevice = insertDevice + " ON CONFLICT (app_id, platform, token) DO NOTHING"

    private static let upsertDevice = insertDevice + """

        ON CONFLICT (app_id, platform, token) DO UPDATE SET
            external_user_id = coalesce(?5, external_user_id), tags = coalesce(?6, tags), locale = coalesce(?7, locale),
            time_zone = coalesce(?8, time_zone), app_version = coalesce(?9, app_version), sdk_version = coalesce(?10, sdk_version),
            apns_environment = coalesce(?13, apns_environment), active = 1, deactivated_reason = NULL, deactivated_at = NULL, updated_at = ?11
        WHERE \(VerifiedUserGuard.sql(protects: "?12", stored: "external_user_id", user: "?5"))
        RETURNING \(Rows.deviceColumns)
        """

    /// Registrations that arrived together, in one transaction: one write-ahead-log commit for many
    /// devices instead of one each. Their plan's steps go one registration after the other here
    /// (SQLite's statements cost no round trip).
    package func registerDevices(together group: [GroupedRegistration]) throws -> [RegisteredDevice] {
        let plan = RegistrationPlan(group)
        return try connection.transaction {
            try plan.steps.flatMap(\.indices).map { index in
                let registration = group[index]
                let device = try upsert(appID: registration.appID, registration.upsert, newID: registration.newID, now: registration.now)
                return RegisteredDevice(device: device, created: device.id == registration.newID)
            }
        }
    }

    private func upsert(appID: String, _ registration: DeviceUpsert, newID: String, now: Int) throws -> DeviceRecord {
        let values = registration.values(appID: appID, newID: newID, now: now)
        let device: DeviceRecord
        if try connection.run(Self.insertNewDevice, values) == 1 {
            // New: the row is what was just written. (Trying the plain insert first saves the
            // upsert's RETURNING, which costs SQLite as much as the insert itself.)
            device = DeviceRecord(
                seq: connection.lastInsertRowID, id: newID, platform: registration.platform, token: registration.token,
                externalUserID: registration.externalUserID, tags: registration.tags ?? [], locale: registration.locale,
                timeZone: registration.timeZone, appVersion: registration.appVersion, sdkVersion: registration.sdkVersion,
                active: true, createdAt: now, updatedAt: now, apnsEnvironment: registration.apnsEnvironment)
        } else {
            guard let updated = try connection.first(Self.upsertDevice, values, { try Rows.device($0, knownTags: registration.tags) }) else {
                throw registration.unwritten
            }
            device = updated
        }
        try reads.deactivateReplacedToken(of: registration, appID: appID, user: device.externalUserID, now: now)
        return device
    }
}
