import Foundation
import NotibaseCore
import NotibaseSenders

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
    func registerDevices(together group: [GroupedRegistration]) throws -> [RegisteredDevice] {
        let plan = RegistrationPlan(group)
        return try connection.transaction {
            try plan.steps.flatMap(\.indices).map { index in
                let registration = group[index]
                let device = try upsert(appID: registration.appID, registration.upsert, newID: registration.newID, now: registration.now)
                return RegisteredDevice(device: device, created: device.id == registration.newID)
            }
        }
    }

    /// Registers many devices in one transaction; returns how many were new.
    func registerDevices(appID: String, _ registrations: [(DeviceUpsert, newID: String)], now: Int) throws -> Int {
        try connection.transaction {
            var created = 0
            for (registration, newID) in registrations where try upsert(appID: appID, registration, newID: newID, now: now).id == newID {
                created += 1
            }
            return created
        }
    }

    private func upsert(appID: String, _ registration: DeviceUpsert, newID: String, now: Int) throws -> DeviceRecord {
        let tags = registration.tags.map(Rows.tagsJSON)
        let values: [SQLValue] = [
            .text(newID), .text(appID), .text(registration.platform.rawValue), .text(registration.token),
            .optionalText(registration.externalUserID), .optionalText(tags), .optionalText(registration.locale),
            .optionalText(registration.timeZone), .optionalText(registration.appVersion), .optionalText(registration.sdkVersion), .int(now),
            .int(registration.protectsVerifiedUsers ? 1 : 0), .optionalText(registration.apnsEnvironment?.rawValue),
        ]
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
                if registration.protectsVerifiedUsers { throw DeviceUpsert.claimedByAnotherUser }
                throw StorageError.corrupt("device upsert returned nothing")
            }
            device = updated
        }
        if let previous = registration.previousToken, previous != registration.token {
            try connection.run(
                """
                UPDATE devices SET active = 0, deactivated_reason = 'replaced by a new token', deactivated_at = ?, updated_at = ?
                WHERE app_id = ? AND platform = ? AND token = ? AND active = 1 AND \(VerifiedUserGuard.sql(protects: "?", stored: "external_user_id", user: "?"))
                """, [.int(now), .int(now), .text(appID), .text(registration.platform.rawValue), .text(previous),
                      .int(registration.protectsVerifiedUsers ? 1 : 0), .optionalText(device.externalUserID)])
        }
        return device
    }
}

/// Devices, read on a reader's connection (or the writer's, inside its transactions: ``SQLiteReads``).
extension SQLiteReads {
    func device(appID: String, id: String) throws -> DeviceRecord? {
        try connection.first("SELECT \(Rows.deviceColumns) FROM devices WHERE id = ? AND app_id = ?", [.text(id), .text(appID)], Rows.device)
    }

    /// A page of the app's devices that `filter` selects, in registration (`seq`) order.
    ///
    /// `devices_app (app_id, active)` holds each app's active devices, then its inactive ones, each
    /// in `seq` order (SQLite ends every index with the rowid): without a filter on either, a page is
    /// read from both and merged, so it costs its rows rather than a sort of every device of the app.
    func devices(appID: String, filter: DeviceFilter, page: SeqPage) throws -> [DeviceRecord] {
        let split = filter.active == nil && filter.externalUserID == nil
        var parts: [String] = []
        var values: [SQLValue] = []
        for active in split ? [true, false] : [filter.active] {
            var selected = filter
            selected.active = active
            let (conditions, conditionValues) = Self.conditions(appID: appID, selected)
            parts.append("SELECT * FROM (SELECT \(Rows.deviceColumns) FROM devices WHERE \(conditions) AND seq \(page.comparison) ? \(page.orderBy("seq")) LIMIT ?)")
            values += conditionValues + [.int(page.bound), .int(page.limit)]
        }
        guard split else { return try connection.query(parts[0], values, Rows.device) }
        return try connection.query("SELECT * FROM (\(parts.joined(separator: " UNION ALL "))) \(page.orderBy("seq")) LIMIT ?", values + [.int(page.limit)], Rows.device)
    }

    /// How many of the app's devices `filter` selects.
    func deviceCount(appID: String, filter: DeviceFilter) throws -> Int {
        let (conditions, values) = Self.conditions(appID: appID, filter)
        return try connection.first("SELECT count(*) FROM devices WHERE \(conditions)", values) { $0.int(0) } ?? 0
    }

    private static func conditions(appID: String, _ filter: DeviceFilter) -> (String, [SQLValue]) {
        var sql = "app_id = ?"
        var values: [SQLValue] = [.text(appID)]
        if let active = filter.active { sql += " AND active = ?"; values.append(.int(active ? 1 : 0)) }
        if let platform = filter.platform { sql += " AND platform = ?"; values.append(.text(platform.rawValue)) }
        if let user = filter.externalUserID { sql += " AND external_user_id = ?"; values.append(.text(user)) }
        if let tag = filter.tag { sql += " AND EXISTS (SELECT 1 FROM json_each(devices.tags) WHERE value = ?)"; values.append(.text(tag)) }
        if let prefix = filter.tokenPrefix { sql += " AND substr(token, 1, length(?)) = ?"; values += [.text(prefix), .text(prefix)] }
        return (sql, values)
    }
}
