import NotibaseCore
package import NotibaseDomain

/// The delivery log read back, with each delivery's history: the statements both backends run
/// alike (``SQLExecutor``).
extension SQLExecutor {
    /// A page of a message's deliveries, through the index on `(message_seq, seq)` in either order
    /// (on PostgreSQL merged across the weeks' partitions).
    package func deliveries(messageSeq: Int, state: DeliveryState?, page: SeqPage) throws -> [DeliveryRecord] {
        try deliveries(where: "d.message_seq", messageSeq, state: state, page: page)
    }

    /// A page of a device's deliveries, through the index on `device_seq` in either order.
    package func deliveries(appID: String, deviceID: String, state: DeliveryState?, page: SeqPage) throws -> [DeliveryRecord]? {
        guard let deviceSeq = try deviceSeq(appID: appID, deviceID: deviceID) else { return nil }
        return try deliveries(where: "d.device_seq", deviceSeq, state: state, page: page)
    }

    /// How many deliveries a device has, in `state` when given.
    package func deliveryCount(appID: String, deviceID: String, state: DeliveryState?) throws -> Int? {
        guard let deviceSeq = try deviceSeq(appID: appID, deviceID: deviceID) else { return nil }
        let (sql, values) = state.map { (" AND state = \(p(2))", [SQLParameter.text($0.rawValue)]) } ?? ("", [])
        return try count("SELECT count(*) FROM deliveries WHERE device_seq = \(p(1))" + sql, [.int(deviceSeq)] + values)
    }

    /// One delivery of the app, with its history.
    package func delivery(appID: String, id: String) throws -> DeliveryRecord? {
        try withEvents(rows(Rows.deliveryQuery + " WHERE d.id = \(p(1)) AND m.app_id = \(p(2))", [.text(id), .text(appID)], Rows.delivery)).first
    }

    private func deviceSeq(appID: String, deviceID: String) throws -> Int? {
        try first("SELECT seq FROM devices WHERE id = \(p(1)) AND app_id = \(p(2))", [.text(deviceID), .text(appID)]) { $0.int(0) }
    }

    private func deliveries(where column: String, _ seq: Int, state: DeliveryState?, page: SeqPage) throws -> [DeliveryRecord] {
        var sql = Rows.deliveryQuery + " WHERE \(column) = \(p(1)) AND d.seq \(page.comparison) \(p(2))"
        var values: [SQLParameter] = [.int(seq), .int(page.bound)]
        if let state {
            values.append(.text(state.rawValue))
            sql += " AND d.state = \(p(values.count))"
        }
        values.append(.int(page.limit))
        return try withEvents(rows(sql + " \(page.orderBy("d.seq")) LIMIT \(p(values.count))", values, Rows.delivery))
    }

    /// The deliveries with their histories, read with one query for the whole page.
    private func withEvents(_ deliveries: [DeliveryRecord]) throws -> [DeliveryRecord] {
        guard !deliveries.isEmpty else { return [] }
        var events: [Int: [DeliveryEventRecord]] = [:]
        let found = try rows(
            "SELECT delivery_seq, event, at, detail FROM delivery_events WHERE delivery_seq IN \(dialect.numbers(in: p(1))) ORDER BY delivery_seq, seq",
            [.text(JSON.text(deliveries.map(\.seq)))]) { ($0.int(0), Rows.event($0, from: 1)) }
        for (seq, event) in found { events[seq, default: []].append(event) }
        return deliveries.map { delivery in
            var delivery = delivery
            delivery.events = events[delivery.seq] ?? []
            return delivery
        }
    }
}

extension DeliveryLogStore where Self: SQLReadStore {
    package func deliveries(messageSeq: Int, state: DeliveryState?, page: SeqPage) async throws -> [DeliveryRecord] {
        try await reading { try $0.deliveries(messageSeq: messageSeq, state: state, page: page) }
    }

    package func deliveries(appID: String, deviceID: String, state: DeliveryState?, page: SeqPage) async throws -> [DeliveryRecord]? {
        try await reading(app: appID) { try $0.deliveries(appID: appID, deviceID: deviceID, state: state, page: page) }
    }

    package func deliveryCount(appID: String, deviceID: String, state: DeliveryState?) async throws -> Int? {
        try await reading(app: appID) { try $0.deliveryCount(appID: appID, deviceID: deviceID, state: state) }
    }

    package func delivery(appID: String, id: String) async throws -> DeliveryRecord? {
        try await reading(app: appID) { try $0.delivery(appID: appID, id: id) }
    }
}
