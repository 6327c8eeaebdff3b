import Foundation
import NotibaseCore

extension Audience {
    /// The condition on `devices` in PostgreSQL, its one parameter numbered `$index` (lists travel
    /// as one JSON array).
    func postgresCondition(parameter index: Int) -> (sql: String, values: [PostgresValue]) {
        let list = "(SELECT jsonb_array_elements_text($\(index)::jsonb))"
        return switch self {
        case .devices(let ids): ("devices.id IN \(list)", [.text(JSON.text(ids))])
        case .externalUsers(let users): ("devices.external_user_id IN \(list)", [.text(JSON.text(users))])
        case .allTags(let tags): ("devices.tags @> $\(index)::jsonb", [.text(JSON.text(tags))])
        case .anyTag(let tags): ("devices.tags ?| ARRAY\(list)", [.text(JSON.text(tags))])
        case .everyone: ("$\(index)::integer = 1", [.int(1)])
        }
    }
}

extension PostgresStore {
    private static let upsertDevice = """
        INSERT INTO devices (id, app_id, platform, token, external_user_id, tags, locale, time_zone, app_version, sdk_version, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, coalesce($6::jsonb, '[]'), $7, $8, $9, $10, $11, $11)
        ON CONFLICT (app_id, platform, token) DO UPDATE SET
            external_user_id = coalesce($5, devices.external_user_id), tags = coalesce($6::jsonb, devices.tags),
            locale = coalesce($7, devices.locale), time_zone = coalesce($8, devices.time_zone),
            app_version = coalesce($9, devices.app_version), sdk_version = coalesce($10, devices.sdk_version),
            active = 1, deactivated_reason = NULL, deactivated_at = NULL, updated_at = $11
        RETURNING \(Rows.deviceColumns), (xmax = 0)
        """

    func registerDevice(appID: String, _ registration: DeviceRegistration, now: Int) async throws -> (DeviceRecord, created: Bool) {
        let newID = Identifier.make(milliseconds: now)
        return try await pool.transaction { try Self.upsert($0, appID: appID, registration, newID: newID, now: now) }
    }

    func registerDevice(
        appID: String, _ registration: DeviceRegistration, now: Int,
        completion: @escaping @Sendable (Result<(DeviceRecord, created: Bool), any Error>) -> Void
    ) {
        Task {
            do {
                completion(.success(try await registerDevice(appID: appID, registration, now: now)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    func registerDevices(appID: String, _ registrations: [(DeviceRegistration, newID: String)], now: Int) async throws -> Int {
        let list = registrations.map { Pending(registration: $0.0, newID: $0.newID) }
        return try await pool.transaction { connection in
            try list.reduce(0) { created, pending in
                created + (try Self.upsert(connection, appID: appID, pending.registration, newID: pending.newID, now: now).created ? 1 : 0)
            }
        }
    }

    private struct Pending: Sendable {
        var registration: DeviceRegistration
        var newID: String
    }

    private static func upsert(_ connection: PostgresConnection, appID: String, _ registration: DeviceRegistration, newID: String, now: Int) throws -> (DeviceRecord, created: Bool) {
        let values: [PostgresValue] = [
            .text(newID), .text(appID), .text(registration.platform.rawValue), .text(registration.token),
            .optionalText(registration.externalUserID), .optionalText(registration.tags.map(Rows.tagsJSON)), .optionalText(registration.locale),
            .optionalText(registration.timeZone), .optionalText(registration.appVersion), .optionalText(registration.sdkVersion), .int(now),
        ]
        guard let result = try connection.query(upsertDevice, values).first({ (try Rows.device($0), $0.text(15) == "t") }) else {
            throw StorageError.corrupt("device upsert returned nothing")
        }
        if let previous = registration.previousToken, previous != registration.token {
            try connection.run(
                """
                UPDATE devices SET active = 0, deactivated_reason = 'replaced by a new token', deactivated_at = $1, updated_at = $1
                WHERE app_id = $2 AND platform = $3 AND token = $4 AND active = 1
                """, [.int(now), .text(appID), .text(registration.platform.rawValue), .text(previous)])
        }
        return (result.0, result.1)
    }

    func device(appID: String, id: String) async throws -> DeviceRecord? {
        try await pool.withConnection {
            try $0.query("SELECT \(Rows.deviceColumns) FROM devices WHERE id = $1 AND app_id = $2", [.text(id), .text(appID)]).first(Rows.device)
        }
    }

    func devices(appID: String, filter: DeviceFilter, afterSeq: Int, limit: Int) async throws -> [DeviceRecord] {
        var sql = "SELECT \(Rows.deviceColumns) FROM devices WHERE app_id = $1 AND seq > $2"
        var values: [PostgresValue] = [.text(appID), .int(afterSeq)]
        func add(_ condition: String, _ value: PostgresValue) {
            values.append(value)
            sql += " AND " + condition.replacingOccurrences(of: "$?", with: "$\(values.count)")
        }
        if let platform = filter.platform { add("platform = $?", .text(platform.rawValue)) }
        if let user = filter.externalUserID { add("external_user_id = $?", .text(user)) }
        if let tag = filter.tag { add("tags ? $?", .text(tag)) }
        if let prefix = filter.tokenPrefix { add("starts_with(token, $?)", .text(prefix)) }
        if let active = filter.active { add("active = $?::integer", .int(active ? 1 : 0)) }
        values.append(.int(limit))
        sql += " ORDER BY seq LIMIT $\(values.count)"
        let query = sql
        let parameters = values
        return try await pool.withConnection { try $0.query(query, parameters).map(Rows.device) }
    }

    /// Deletes a device; its deliveries not yet sent fail with that reason (the foreign key
    /// detaches the rest).
    func deleteDevice(appID: String, id: String, now: Int) async throws -> Bool {
        try await pool.transaction { connection in
            guard let seq = try connection.query("SELECT seq FROM devices WHERE id = $1 AND app_id = $2 FOR UPDATE", [.text(id), .text(appID)]).first({ $0.int(0) }) else {
                return false
            }
            let failed = try connection.query(
                """
                UPDATE deliveries SET state = 'failed', due_at = NULL, updated_at = $1
                WHERE device_seq = $2 AND state IN (\(Lifecycle.pendingSQL)) RETURNING seq, message_seq
                """, [.int(now), .int(seq)]).map { ($0.int(0), $0.int(1)) }
            if !failed.isEmpty {
                try connection.run(
                    "INSERT INTO delivery_events (delivery_seq, event, at, detail) SELECT value::bigint, 'failed', $1, $2 FROM jsonb_array_elements_text($3::jsonb)",
                    [.int(now), .text(Rows.deviceDeletedDetail), .text(JSON.text(failed.map(\.0)))])
            }
            try connection.run("DELETE FROM devices WHERE seq = $1", [.int(seq)])
            try Self.completeIfFinished(connection, messageSeqs: Set(failed.map(\.1)), now: now)
            return true
        }
    }
}
