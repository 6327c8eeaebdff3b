package import NotibaseCore
package import NotibaseDomain

extension Audience {
    /// Where an audience's devices are read from: a `FROM` clause that yields rows named
    /// `devices`, a condition on them, and their parameters, numbered from `first` (`1` is always
    /// the app's ID). An app's devices are then narrowed by `devices.app_id` and `devices.active`.
    ///
    /// A list of device or user IDs is looked up one entry at a time through the index on `id` or
    /// on `(app_id, external_user_id)`, so a message to one device costs that device, not the
    /// app's whole device index (docs/decisions/0014): SQLite keeps the list as the outer loop of
    /// a `CROSS JOIN`; PostgreSQL fences each lookup in a `LATERAL` subquery (`LIMIT` or
    /// `OFFSET 0`), which the planner cannot merge into a join, so no statistics can make it walk
    /// the index in `seq` order instead. Each entry is looked up once, however often it is listed.
    package func source(_ dialect: SQLDialect, first index: Int) -> (from: String, condition: String, values: [SQLParameter]) {
        let p = dialect.p(index)
        switch dialect {
        case .sqlite:
            let wanted = "(SELECT DISTINCT value FROM json_each(\(p))) AS wanted CROSS JOIN devices"
            return switch self {
            case .devices(let ids): (wanted + " ON devices.id = wanted.value", "1", [.text(JSON.text(ids))])
            case .externalUsers(let users): (wanted + " ON devices.external_user_id = wanted.value", "1", [.text(JSON.text(users))])
            case .allTags(let tags):
                ("devices", "(SELECT count(DISTINCT value) FROM json_each(devices.tags) WHERE value IN (SELECT value FROM json_each(\(p)))) = \(dialect.p(index + 1))",
                 [.text(JSON.text(tags)), .int(Set(tags).count)])
            case .anyTag(let tags): ("devices", "EXISTS (SELECT 1 FROM json_each(devices.tags) WHERE value IN (SELECT value FROM json_each(\(p))))", [.text(JSON.text(tags))])
            case .everyone: ("devices", "1", [])
            }
        case .postgres:
            let wanted = "(SELECT DISTINCT jsonb_array_elements_text(\(p)::jsonb) AS value) AS wanted CROSS JOIN LATERAL"
            return switch self {
            case .devices(let ids): ("\(wanted) (SELECT * FROM devices WHERE devices.id = wanted.value LIMIT 1) AS devices", "true", [.text(JSON.text(ids))])
            case .externalUsers(let users):
                ("\(wanted) (SELECT * FROM devices WHERE devices.app_id = $1 AND devices.external_user_id = wanted.value OFFSET 0) AS devices", "true",
                 [.text(JSON.text(users))])
            case .allTags(let tags): ("devices", "devices.tags @> \(p)::jsonb", [.text(JSON.text(tags))])
            case .anyTag(let tags): ("devices", "devices.tags ?| ARRAY(SELECT jsonb_array_elements_text(\(p)::jsonb))", [.text(JSON.text(tags))])
            case .everyone: ("devices", "\(p)::integer = 1", [.int(1)])
            }
        }
    }
}

/// An audience's devices, counted and read alike on both backends (``Audience/source(_:first:)``).
extension SQLExecutor {
    /// How many active devices of the app an audience matches now.
    package func audienceSize(appID: String, _ audience: Audience) throws -> Int {
        let source = audience.source(dialect, first: 2)
        return try count(
            "SELECT count(*) FROM \(source.from) WHERE devices.app_id = \(p(1)) AND devices.active = 1 AND \(source.condition)", [.text(appID)] + source.values)
    }

    package func matchedExternalUsers(appID: String, _ users: [String]) throws -> Int {
        let source = Audience.externalUsers(users).source(dialect, first: 2)
        return try count(
            "SELECT count(DISTINCT devices.external_user_id) FROM \(source.from) WHERE devices.app_id = \(p(1)) AND devices.active = 1",
            [.text(appID)] + source.values)
    }

    package func audienceReaches(appID: String, _ audience: Audience, platform: Platform) throws -> Bool {
        let source = audience.source(dialect, first: 3)
        return try first(
            "SELECT 1 FROM \(source.from) WHERE devices.app_id = \(p(1)) AND devices.active = 1 AND devices.platform = \(p(2)) AND \(source.condition) LIMIT 1",
            [.text(appID), .text(platform.rawValue)] + source.values) { $0.int(0) } != nil
    }

    /// The next `limit` active devices of `audience` after the cursor `after`, in the order a
    /// fan-out writes them; with `facts`, with what the sends' events name (``ClaimedDelivery/sendFacts``).
    package func fanOutTargets(appID: String, _ audience: Audience, after cursor: Int, limit: Int, facts: Bool = false) throws -> [FanOutTarget] {
        let source = audience.source(dialect, first: 3)
        return try rows(
            """
            SELECT \(facts ? Rows.fanOutTargetWithFactsColumns : Rows.fanOutTargetColumns) FROM \(source.from)
            WHERE devices.app_id = \(p(1)) AND devices.active = 1 AND devices.seq > \(p(2)) AND \(source.condition) ORDER BY devices.seq LIMIT \(p(3 + source.values.count))
            """, [.text(appID), .int(cursor)] + source.values + [.int(limit)]) { facts ? Rows.fanOutTargetWithFacts($0) : Rows.fanOutTarget($0) }
    }
}

extension PostingStore where Self: SQLReadStore {
    package func audienceSize(appID: String, _ audience: Audience) async throws -> Int {
        try await reading(app: appID, bulk: true) { try $0.audienceSize(appID: appID, audience) }
    }

    package func matchedExternalUsers(appID: String, _ users: [String]) async throws -> Int {
        try await reading(app: appID, bulk: true) { try $0.matchedExternalUsers(appID: appID, users) }
    }

    package func audienceReaches(appID: String, _ audience: Audience, platform: Platform) async throws -> Bool {
        try await reading(app: appID) { try $0.audienceReaches(appID: appID, audience, platform: platform) }
    }
}
