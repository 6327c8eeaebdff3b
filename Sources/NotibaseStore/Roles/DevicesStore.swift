package import NotibaseCore
package import NotibaseDomain

/// Devices and the users they are registered for: ``DeviceService`` registers, reads, signs out
/// and deletes them (registrations through ``RegistrationPlan``), ``UserService`` forgets a user
/// (``Forgetting``).
package protocol DevicesStore: Sendable {
    /// Writes registrations that arrived together (of any apps) in one transaction, running their
    /// ``RegistrationPlan``'s steps in order: each device inserted with its `newID`, or the one with
    /// the same app, platform and token updated and reactivated. Answers each in the group's order;
    /// throws, having written nothing, when any of them fails (a device stored with another verified
    /// user refuses its registration: ``DeviceUpsert/claimedByAnotherUser``).
    func registerDevices(together group: [GroupedRegistration]) async throws -> [RegisteredDevice]
    func registerDevices(appID: String, _ registrations: [(DeviceUpsert, newID: String)], now: Int) async throws -> Int
    func device(appID: String, id: String) async throws -> DeviceRecord?
    /// A page of the app's devices that `filter` selects, in `seq` order either way.
    func devices(appID: String, filter: DeviceFilter, page: SeqPage) async throws -> [DeviceRecord]
    /// How many of the app's devices `filter` selects: a count of the app's devices (a bulk read).
    func deviceCount(appID: String, filter: DeviceFilter) async throws -> Int
    /// Deletes a device; its deliveries not yet sent fail.
    func deleteDevice(appID: String, id: String, now: Int) async throws -> Bool
    /// Clears the external user ID of the app's device registered under `platform` and `token`, in
    /// one transaction, and ends as `cancelled` its deliveries not yet sent of messages addressed by
    /// `externalUserIds` (they were meant for the user who signed out). Returns those deliveries'
    /// numbers (a node drops them from its ``Handoff``), or nil when the app has no such device. A
    /// fan-out that starts after it commits no longer finds the device by its user.
    func signOut(appID: String, platform: Platform, token: String, now: Int) async throws -> [Int]?
    /// Removes the text typed into a reply field (`text`) from up to `limit` history entries of the
    /// deliveries to the app's device `deviceSeq`, in one transaction; returns how many; 0 when none
    /// is left. What else the entries say stays.
    func removeReplyTexts(appID: String, deviceSeq: Int, limit: Int) async throws -> Int
    /// Looks at up to `limit` of the app's messages after `afterSeq` (in order) and replaces
    /// `externalUserID` by `""` (which no device can have) in the audiences that list it, in one
    /// transaction, keeping the app's count of stored bytes. Returns how many it rewrote and the last
    /// message it looked at (nil when there was none left).
    func forgetUserInAudiences(appID: String, externalUserID: String, afterSeq: Int, limit: Int) async throws -> (rewritten: Int, lastSeq: Int?)
}

extension DevicesStore {
    /// The list as it was first read: oldest first after a `seq`.
    package func devices(appID: String, filter: DeviceFilter, afterSeq: Int, limit: Int) async throws -> [DeviceRecord] {
        try await devices(appID: appID, filter: filter, page: .after(afterSeq, limit: limit))
    }

    /// By default, the batch as a group of one app's registrations (``registerDevices(together:)``),
    /// counting the devices it made.
    package func registerDevices(appID: String, _ registrations: [(DeviceUpsert, newID: String)], now: Int) async throws -> Int {
        let group = registrations.map { GroupedRegistration(appID: appID, upsert: $0.0, newID: $0.newID, now: now) }
        return try await registerDevices(together: group).count(where: \.created)
    }
}
