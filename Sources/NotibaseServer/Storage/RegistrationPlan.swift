import NotibaseCore

/// One registration of a group that a store writes in one transaction (a group commit): the
/// device, its app, when, and the identifier it gets if it is new.
struct GroupedRegistration: Sendable, Equatable {
    var appID: String
    var upsert: DeviceUpsert
    var newID: String
    var now: Int

    /// The device it names: its app, platform and token.
    var device: DeviceKey { DeviceKey(appID: appID, platform: upsert.platform, token: upsert.token) }
}

/// A registration waiting for its group commit (``GroupCommit/init(registeringOn:limit:)``); its
/// device's identifier is made with its group's.
struct PendingRegistration: Sendable {
    var appID: String
    var upsert: DeviceUpsert
    var now: Int
}

extension GroupCommit where Item == PendingRegistration, Output == RegisteredDevice {
    /// Registrations committed together on `store` (``DevicesStore/registerDevices(together:)``), one
    /// group of at most `limit` at a time on either backend (SQLite has one writer; on PostgreSQL
    /// the groups of one node would only wait for each other's rows), the identifiers of a group's
    /// new devices drawn at once.
    convenience init(registeringOn store: any DevicesStore, limit: Int) {
        self.init(limit: limit, failsEveryItem: RegistrationPlan.failsEveryRegistration) { pending in
            let newIDs = try Identifier.make(times: pending.map(\.now))
            let group = zip(pending, newIDs).map { GroupedRegistration(appID: $0.appID, upsert: $0.upsert, newID: $1, now: $0.now) }
            return try await store.registerDevices(together: group).map { .success($0) }
        }
    }
}

/// A device by what identifies it among every app's devices.
struct DeviceKey: Hashable, Sendable {
    var appID: String
    var platform: Platform
    var token: String
}

/// A device as a registration left it, and whether the registration made it.
struct RegisteredDevice: Sendable {
    var device: DeviceRecord
    var created: Bool
}

/// How a store writes a group of registrations in its one transaction, decided without I/O: both
/// backends run its steps in order. The registrations of a ``Step/together(_:)`` step may be
/// written by one statement (PostgreSQL's, one round trip instead of one each; SQLite's
/// statements cost no round trip, so it writes them one after the other). A registration that
/// replaces a token, or names a device an earlier one of the step names, cannot join it: it ends
/// the step. Run in this order, each registration finds its device as the ones before it left
/// it, as if each were committed alone.
struct RegistrationPlan: Equatable, Sendable {
    enum Step: Equatable, Sendable {
        /// Registrations of different devices, none replacing a token.
        case together(Range<Int>)
        /// One registration on its own.
        case alone(Int)
    }

    /// The steps, which cover the group in its order.
    let steps: [Step]

    init(_ group: [GroupedRegistration]) {
        var steps: [Step] = []
        var start = 0
        var devices = Set<DeviceKey>()
        func endStep(at end: Int) {
            if end - start == 1 { steps.append(.alone(start)) } else if end > start { steps.append(.together(start..<end)) }
            start = end
            devices = []
        }
        for (index, registration) in group.enumerated() {
            if registration.upsert.previousToken != nil {
                endStep(at: index)
                endStep(at: index + 1)
            } else if !devices.insert(registration.device).inserted {
                endStep(at: index)
                devices.insert(registration.device)
            }
        }
        endStep(at: group.count)
        self.steps = steps
    }

    /// Whether one statement writes the whole group.
    var isOneStatement: Bool {
        guard steps.count == 1, case .together = steps[0] else { return false }
        return true
    }

    /// Whether `error`, from a group's transaction, is the answer to every registration of the
    /// group: the database is unavailable, and trying each alone would only wait for it as many
    /// times. Any other error belongs to one registration, found by trying each alone
    /// (``GroupCommit``).
    static func failsEveryRegistration(_ error: any Error) -> Bool {
        (error as? StorageError)?.kind == .unavailable
    }
}

extension RegistrationPlan.Step {
    /// The registrations it writes.
    var indices: Range<Int> {
        switch self {
        case .together(let range): range
        case .alone(let index): index..<(index + 1)
        }
    }
}
