package import NotibaseCore

/// One registration of a group that a store writes in one transaction (a group commit): the
/// device, its app, when, and the identifier it gets if it is new.
package struct GroupedRegistration: Sendable, Equatable {
    package var appID: String
    package var upsert: DeviceUpsert
    package var newID: String
    package var now: Int

    /// The device it names: its app, platform and token.
    package var device: DeviceKey { DeviceKey(appID: appID, platform: upsert.platform, token: upsert.token) }

    package init(appID: String, upsert: DeviceUpsert, newID: String, now: Int) {
        self.appID = appID
        self.upsert = upsert
        self.newID = newID
        self.now = now
    }
}

/// A registration waiting for its group commit (``GroupCommit/init(registeringOn:limit:)``); its
/// device's identifier is made with its group's.
package struct PendingRegistration: Sendable {
    package var appID: String
    package var upsert: DeviceUpsert
    package var now: Int

    package init(appID: String, upsert: DeviceUpsert, now: Int) {
        self.appID = appID
        self.upsert = upsert
        self.now = now
    }
}

/// A device by what identifies it among every app's devices.
package struct DeviceKey: Hashable, Sendable {
    package var appID: String
    package var platform: Platform
    package var token: String

    package init(appID: String, platform: Platform, token: String) {
        self.appID = appID
        self.platform = platform
        self.token = token
    }
}

/// A device as a registration left it, and whether the registration made it.
package struct RegisteredDevice: Sendable {
    package var device: DeviceRecord
    package var created: Bool

    package init(device: DeviceRecord, created: Bool) {
        self.device = device
        self.created = created
    }
}

/// How a store writes a group of registrations in its one transaction, decided without I/O: both
/// backends run its steps in order. The registrations of a ``Step/together(_:)`` step may be
/// written by one statement (PostgreSQL's, one round trip instead of one each; SQLite's
/// statements cost no round trip, so it writes them one after the other). A registration that
/// replaces a token, or names a device an earlier one of the step names, cannot join it: it ends
/// the step. Run in this order, each registration finds its device as the ones before it left
/// it, as if each were committed alone.
package struct RegistrationPlan: Equatable, Sendable {
    package enum Step: Equatable, Sendable {
        /// Registrations of different devices, none replacing a token.
        case together(Range<Int>)
        /// One registration on its own.
        case alone(Int)
    }

    /// The steps, which cover the group in its order.
    package let steps: [Step]

    package init(_ group: [GroupedRegistration]) {
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
    package var isOneStatement: Bool {
        guard steps.count == 1, case .together = steps[0] else { return false }
        return true
    }

    /// Whether `error`, from a group's transaction, is the answer to every registration of the
    /// group: the database is unavailable, and trying each alone would only wait for it as many
    /// times. Any other error belongs to one registration, found by trying each alone
    /// (``GroupCommit``).
    package static func failsEveryRegistration(_ error: any Error) -> Bool {
        (error as? StorageError)?.kind == .unavailable
    }
}

extension RegistrationPlan.Step {
    /// The registrations it writes.
    package var indices: Range<Int> {
        switch self {
        case .together(let range): range
        case .alone(let index): index..<(index + 1)
        }
    }
}
