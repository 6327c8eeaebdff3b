import NotibaseCore
package import NotibaseDomain

/// Devices read back: the statements both backends run alike (``SQLExecutor``).
extension SQLExecutor {
    package func device(appID: String, id: String) throws -> DeviceRecord? {
        try first("SELECT \(Rows.deviceColumns) FROM devices WHERE id = \(p(1)) AND app_id = \(p(2))", [.text(id), .text(appID)], Rows.device)
    }

    /// A page of the app's devices that `filter` selects, in registration (`seq`) order.
    ///
    /// The index on `(app_id, active)` holds each app's active devices, then its inactive ones,
    /// each in `seq` order (SQLite ends every index with the rowid; PostgreSQL's names `seq`):
    /// without a filter on either, a page is read from both and merged, so it costs its rows
    /// rather than a sort of every device of the app.
    package func devices(appID: String, filter: DeviceFilter, page: SeqPage) throws -> [DeviceRecord] {
        let split = filter.active == nil && filter.externalUserID == nil
        var parts: [String] = []
        var values: [SQLParameter] = []
        let actives: [Bool?] = split ? [true, false] : [filter.active]
        for (index, active) in actives.enumerated() {
            var selected = filter
            selected.active = active
            let conditions = self.conditions(appID: appID, selected, values: &values)
            values += [.int(page.bound), .int(page.limit)]
            parts.append(
                """
                SELECT * FROM (SELECT \(Rows.deviceColumns) FROM devices WHERE \(conditions) AND seq \(page.comparison) \(p(values.count - 1))
                    \(page.orderBy("seq")) LIMIT \(p(values.count))) AS part\(index)
                """)
        }
        guard split else { return try rows(parts[0], values, Rows.device) }
        values.append(.int(page.limit))
        return try rows(
            "SELECT * FROM (\(parts.joined(separator: " UNION ALL "))) AS page \(page.orderBy("seq")) LIMIT \(p(values.count))", values, Rows.device)
    }

    /// How many of the app's devices `filter` selects.
    package func deviceCount(appID: String, filter: DeviceFilter) throws -> Int {
        var values: [SQLParameter] = []
        let conditions = self.conditions(appID: appID, filter, values: &values)
        return try count("SELECT count(*) FROM devices WHERE \(conditions)", values)
    }

    /// `filter`'s conditions on the app's devices, their values appended to `values`.
    private func conditions(appID: String, _ filter: DeviceFilter, values: inout [SQLParameter]) -> String {
        var conditions: [String] = []
        func add(_ condition: (String) -> String, _ value: SQLParameter) {
            values.append(value)
            conditions.append(condition(p(values.count)))
        }
        add({ "app_id = \($0)" }, .text(appID))
        if let active = filter.active { add({ "active = \($0)" }, .flag(active)) }
        if let platform = filter.platform { add({ "platform = \($0)" }, .text(platform.rawValue)) }
        if let user = filter.externalUserID { add({ "external_user_id = \($0)" }, .text(user)) }
        if let tag = filter.tag { add(dialect.tagsContain, .text(tag)) }
        if let prefix = filter.tokenPrefix { add(dialect.tokenStarts(with:), .text(prefix)) }
        return conditions.joined(separator: " AND ")
    }
}

extension DevicesStore where Self: SQLReadStore {
    package func device(appID: String, id: String) async throws -> DeviceRecord? {
        try await reading(app: appID) { try $0.device(appID: appID, id: id) }
    }

    package func devices(appID: String, filter: DeviceFilter, page: SeqPage) async throws -> [DeviceRecord] {
        try await reading(app: appID) { try $0.devices(appID: appID, filter: filter, page: page) }
    }

    package func deviceCount(appID: String, filter: DeviceFilter) async throws -> Int {
        try await reading(app: appID, bulk: true) { try $0.deviceCount(appID: appID, filter: filter) }
    }
}
