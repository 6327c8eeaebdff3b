package import NotibaseDelivery
package import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Devices as the API changes them: registration (the identity rule, then one group commit with
/// the registrations that arrive together) and sign-out. The routes parse, authorize and answer;
/// this decides and calls the store.
package final class DeviceService: Sendable {
    /// What a registration did.
    package struct Registration: Sendable {
        package var device: DeviceRecord
        package var created: Bool
        /// The registration as it was stored: its external user ID only where the identity rule
        /// kept it.
        package var stored: DeviceUpsert
        /// Why part of it was not stored (the identity rule), for the answer.
        package var warning: String?
    }

    private let store: any DevicesStore
    private let signer: Signer
    private let clock: WallClock
    private let handoff: Handoff?
    private let registrations: RegistrationGroupCommit

    /// The most registrations one transaction writes.
    package static let registrationsPerCommit = 1_000

    package init(store: any DevicesStore, signer: Signer, clock: WallClock, handoff: Handoff?) {
        self.store = store
        self.signer = signer
        self.clock = clock
        self.handoff = handoff
        registrations = GroupCommit(registeringOn: store, limit: Self.registrationsPerCommit)
    }

    /// Registers a device of `appID` for `caller` (one of the app's keys), or updates the one with
    /// the same platform and token; returns once it is durably written.
    package func register(_ upsert: DeviceUpsert, appID: String, caller: Caller) async throws -> Registration {
        var upsert = upsert
        let warning = Self.applyIdentityRule(&upsert, caller: caller, signer: signer)
        let registered = try await registrations.submit(PendingRegistration(appID: appID, upsert: upsert, now: clock.milliseconds()))
        return Registration(device: registered.device, created: registered.created, stored: upsert, warning: warning)
    }

    /// Registers many devices of `appID` in one transaction (the backend's import); returns how
    /// many were new.
    package func register(batch: [DeviceUpsert], appID: String) async throws -> Int {
        let now = clock.milliseconds()
        let newIDs = try Identifier.make(count: batch.count, milliseconds: now)
        return try await store.registerDevices(appID: appID, zip(batch, newIDs).map { ($0, newID: $1) }, now: now)
    }

    /// A page of the app's devices that `filter` selects, and how many it selects when `counting`.
    package func devices(appID: String, filter: DeviceFilter, page: SeqPage, counting: Bool) async throws -> (items: [DeviceRecord], total: Int?) {
        let items = try await store.devices(appID: appID, filter: filter, page: page)
        return (items, counting ? try await store.deviceCount(appID: appID, filter: filter) : nil)
    }

    /// The app's device `id`, or nil.
    package func device(appID: String, id: String) async throws -> DeviceRecord? {
        try await store.device(appID: appID, id: id)
    }

    /// Deletes the app's device `id` (its unsent deliveries go with it); false when there is none.
    package func delete(appID: String, id: String) async throws -> Bool {
        try await store.deleteDevice(appID: appID, id: id, now: clock.milliseconds())
    }

    /// Clears the user of the app's device with this platform and token, and cancels what was
    /// still to be sent to it for that user, here and in this node's handoff (docs/decisions/0022).
    /// Returns whether the app has such a device.
    package func signOut(appID: String, platform: Platform, token: String) async throws -> Bool {
        let cancelled = try await store.signOut(appID: appID, platform: platform, token: token, now: clock.milliseconds())
        // What this node's fan-out or posts handed to its workers in memory is not sent either.
        if let cancelled, !cancelled.isEmpty { handoff?.forget(deliverySeqs: Set(cancelled)) }
        return cancelled != nil
    }

    /// The identity rule: when the app requires identity verification, a device registered with
    /// the client key (which anyone can take from the app) is only addressed as its external user
    /// ID with that ID's identity token. Without it the ID is not stored (a stored one stays), and
    /// the answer says why. Such a registration also may not take over, nor retire through
    /// `previousToken`, a device stored with another user (``DeviceUpsert/protectsVerifiedUsers``).
    /// The server key is the backend's own: it needs no token.
    package static func applyIdentityRule(_ registration: inout DeviceUpsert, caller: Caller, signer: Signer) -> String? {
        guard caller.kind == .client, caller.requiresIdentityVerification else { return nil }
        registration.protectsVerifiedUsers = true
        guard let user = registration.externalUserID, let appID = caller.appID else { return nil }
        if signer.isIdentityToken(registration.identityToken, appID: appID, externalUserID: user) { return nil }
        registration.externalUserID = nil
        return registration.identityToken == nil
            ? "externalUserId was not stored: this app requires identity verification; send externalUserIdToken from POST /v1/identity-tokens"
            : "externalUserId was not stored: externalUserIdToken is not the identity token of this user ID"
    }
}
