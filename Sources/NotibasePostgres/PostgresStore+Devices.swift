import Foundation
import NotibaseCore
import NotibaseSenders
package import NotibaseDomain
import NotibaseStore

extension PostgresStore {
    private static let upsertDevice = """
        INSERT INTO devices (id, app_id, platform, token, external_user_id, tags, locale, time_zone, app_version, sdk_version, created_at, updated_at, apns_environment)
        VALUES ($1, $2, $3, $4, $5, coalesce($6::jsonb, '[]'), $7, $8, $9, $10, $11, $11, $13)
        ON CONFLICT (app_id, platform, token) DO UPDATE SET
            external_user_id = coalesce($5, devices.external_user_id), tags = coalesce($6::jsonb, devices.tags),
            locale = coalesce($7, devices.locale), time_zone = coalesce($8, devices.time_zone),
            app_version = coalesce($9, devices.app_version), sdk_version = coalesce($10, devices.sdk_version),
            apns_environment = coalesce($13, devices.apns_environment), active = 1, deactivated_reason = NULL, deactivated_at = NULL, updated_at = $11
        WHERE \(VerifiedUserGuard.sql(protects: "$12::integer", stored: "devices.external_user_id", user: "$5"))
        RETURNING \(Rows.deviceColumns), (xmax = 0)
        """

    /// Registrations that arrived together, in one transaction: one durable commit for many
    /// devices instead of one each, which is what bounds single registrations on PostgreSQL (its
    /// commit waits for the disk). Each step of their plan that may go together is one statement;
    /// a registration that statement left out (a device another node inserted meanwhile, which its
    /// snapshot does not show) is written on its own.
    package func registerDevices(together group: [GroupedRegistration]) async throws -> [RegisteredDevice] {
        let plan = RegistrationPlan(group)
        return try await pool.transaction { connection in
            var answers: [RegisteredDevice] = []
            answers.reserveCapacity(group.count)
            for step in plan.steps {
                switch step {
                case .alone(let index):
                    answers.append(try Self.upsert(connection, group[index]))
                case .together(let range):
                    var written: [DeviceKey: RegisteredDevice] = [:]
                    for (app, answer) in try connection.query(Self.upsertedRows, [.text(Self.recordset(group[range]))])
                        .map({ ($0.text(17), RegisteredDevice(device: try Rows.device($0), created: $0.text(16) == "t")) }) {
                        written[DeviceKey(appID: app, platform: answer.device.platform, token: answer.device.token)] = answer
                    }
                    for registration in group[range] {
                        answers.append(try written[registration.device] ?? Self.upsert(connection, registration))
                    }
                }
            }
            return answers
        }
    }

    /// What ``manyUpserted(returning:)`` answers.
    private enum UpsertAnswer { case rows, counts }

    /// Registrations of any apps in one statement: new devices inserted, known ones updated as
    /// ``upsertDevice`` would (fields left out keep their values). Answers each device's row with
    /// whether it is new and its app, or only how many were new and how many known.
    private static func manyUpserted(returning answer: UpsertAnswer) -> String {
        """
        WITH r AS (
            SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(
                app text, now bigint, id text, platform text, token text, "externalUserID" text, tags jsonb, locale text, "timeZone" text,
                "appVersion" text, "sdkVersion" text, "protectsVerifiedUsers" boolean, "apnsEnvironment" text)),
        inserted AS (
            INSERT INTO devices (id, app_id, platform, token, external_user_id, tags, locale, time_zone, app_version, sdk_version, created_at, updated_at, apns_environment)
            SELECT r.id, r.app, r.platform, r.token, r."externalUserID", coalesce(r.tags, '[]'), r.locale, r."timeZone", r."appVersion", r."sdkVersion",
                r.now, r.now, r."apnsEnvironment"
            FROM r ON CONFLICT (app_id, platform, token) DO NOTHING
            RETURNING \(answer == .rows ? Rows.deviceColumns + ", true, app_id" : "1")),
        updated AS (
            UPDATE devices d SET
                external_user_id = coalesce(r."externalUserID", d.external_user_id), tags = coalesce(r.tags, d.tags),
                locale = coalesce(r.locale, d.locale), time_zone = coalesce(r."timeZone", d.time_zone),
                app_version = coalesce(r."appVersion", d.app_version), sdk_version = coalesce(r."sdkVersion", d.sdk_version),
                apns_environment = coalesce(r."apnsEnvironment", d.apns_environment), active = 1, deactivated_reason = NULL, deactivated_at = NULL, updated_at = r.now
            FROM r WHERE d.app_id = r.app AND d.platform = r.platform AND d.token = r.token
                AND \(VerifiedUserGuard.sql(protects: #"r."protectsVerifiedUsers"::integer"#, stored: "d.external_user_id", user: #"r."externalUserID""#))
            RETURNING \(answer == .rows ? qualifiedDeviceColumns + ", false, d.app_id" : "1"))
        \(answer == .rows ? "SELECT * FROM inserted UNION ALL SELECT * FROM updated" : "SELECT (SELECT count(*) FROM inserted), (SELECT count(*) FROM updated)")
        """
    }

    private static let upsertedRows = manyUpserted(returning: .rows)
    private static let upsertedCounts = manyUpserted(returning: .counts)

    private static let qualifiedDeviceColumns = Rows.deviceColumns.split(separator: ",")
        .map { "d." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")

    /// Registers a batch in one transaction. A plain batch (no token replaced, no device twice)
    /// takes one statement: new devices are inserted, known ones updated as one registration
    /// would; any other batch goes device by device, in order.
    package func registerDevices(appID: String, _ registrations: [(DeviceUpsert, newID: String)], now: Int) async throws -> Int {
        let list = registrations.map { GroupedRegistration(appID: appID, upsert: $0.0, newID: $0.newID, now: now) }
        if RegistrationPlan(list).isOneStatement {
            let rows = Self.recordset(list)
            return try await pool.transaction { connection in
                try connection.query(Self.upsertedCounts, [.text(rows)]).first { $0.int(0) } ?? 0
            }
        }
        return try await pool.transaction { connection in
            try list.reduce(0) { created, registration in created + (try Self.upsert(connection, registration).created ? 1 : 0) }
        }
    }

    /// Registrations as the rows of ``manyUpserted(returning:)``'s `jsonb_to_recordset`.
    private static func recordset(_ group: some Collection<GroupedRegistration>) -> String {
        RecordsetJSON.of(group, bytesPerRow: 256) { item, json in
            let registration = item.upsert
            json.field("app", item.appID)
            json.field("now", item.now)
            json.field("id", item.newID)
            json.field("platform", registration.platform.rawValue)
            json.field("token", registration.token)
            json.field("externalUserID", registration.externalUserID)
            json.field("tags", registration.tags)
            json.field("locale", registration.locale)
            json.field("timeZone", registration.timeZone)
            json.field("appVersion", registration.appVersion)
            json.field("sdkVersion", registration.sdkVersion)
            json.field("protectsVerifiedUsers", registration.protectsVerifiedUsers)
            json.field("apnsEnvironment", registration.apnsEnvironment?.rawValue)
        }
    }

    private static func upsert(_ connection: PostgresConnection, _ grouped: GroupedRegistration) throws -> RegisteredDevice {
        let registration = grouped.upsert
        let values = registration.values(appID: grouped.appID, newID: grouped.newID, now: grouped.now)
        guard let (device, created) = try connection.query(upsertDevice, values).first({ (try Rows.device($0), $0.text(16) == "t") }) else {
            throw registration.unwritten
        }
        try connection.deactivateReplacedToken(of: registration, appID: grouped.appID, user: device.externalUserID, now: grouped.now)
        return RegisteredDevice(device: device, created: created)
    }
}
