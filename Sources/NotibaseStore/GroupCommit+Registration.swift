import NotibaseCore
package import NotibaseDomain

/// The group commit of device registrations (``GroupCommit/init(registeringOn:limit:)``).
package typealias RegistrationGroupCommit = GroupCommit<PendingRegistration, RegisteredDevice>

extension GroupCommit where Item == PendingRegistration, Output == RegisteredDevice {
    /// Registrations committed together on `store` (``DevicesStore/registerDevices(together:)``), one
    /// group of at most `limit` at a time on either backend (SQLite has one writer; on PostgreSQL
    /// the groups of one node would only wait for each other's rows), the identifiers of a group's
    /// new devices drawn at once.
    package convenience init(registeringOn store: any DevicesStore, limit: Int) {
        self.init(limit: limit, failsEveryItem: RegistrationPlan.failsEveryRegistration) { pending in
            let newIDs = try Identifier.make(times: pending.map(\.now))
            let group = zip(pending, newIDs).map { GroupedRegistration(appID: $0.appID, upsert: $0.upsert, newID: $1, now: $0.now) }
            return try await store.registerDevices(together: group).map { .success($0) }
        }
    }
}
