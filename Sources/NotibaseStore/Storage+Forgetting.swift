package import NotibaseDomain
/// How a user is forgotten (`DELETE /v1/users/{externalUserId}`): in short steps, each its own
/// transaction, never one for a user with thousands of devices or a history of years. For each of
/// the user's devices, the texts typed into reply fields are removed from its deliveries' history
/// (``Forgetting/batch`` entries a step), then the device is deleted (its deliveries stay in their
/// messages' logs, detached from any device; those not yet sent fail). Then the user ID is replaced
/// in the audiences of the app's messages that listed it, ``Forgetting/batch`` messages looked at a
/// step. Every step can run again: a deletion the server stopped in the middle of is finished by
/// asking again.
package enum Forgetting {
    /// History entries or messages per transaction: a few milliseconds of the store each.
    package static let batch = 2_000
    /// Devices read per step.
    package static let devicesPerStep = 100
}

extension Forgetting {
    /// The stored audiences among `candidates` (a message's number and its stored audience) that
    /// list `user`, rewritten without it (``Audience/forgetting(_:)``), and the bytes that saves the
    /// app's count.
    package static func rewrites(_ candidates: [(seq: Int, audience: String)], forgetting user: String) throws -> (rewrites: [(seq: Int, audience: String)], bytesSaved: Int) {
        var rewrites: [(seq: Int, audience: String)] = []
        var saved = 0
        for (seq, stored) in candidates {
            guard let audience = StoredJSON.decode(Audience.self, stored)?.forgetting(user) else { continue }
            let replaced = try StoredJSON.encode(audience)
            rewrites.append((seq, replaced))
            saved += stored.utf8.count - replaced.utf8.count
        }
        return (rewrites, saved)
    }
}

extension DevicesStore {
    /// Forgets `externalUserID` of the app, step by step (``Forgetting``).
    package func deleteUser(appID: String, externalUserID: String, now: Int) async throws -> ForgottenUser {
        var forgotten = ForgottenUser()
        var filter = DeviceFilter()
        filter.externalUserID = externalUserID
        var after = 0
        while true {
            let devices = try await devices(appID: appID, filter: filter, afterSeq: after, limit: Forgetting.devicesPerStep)
            guard let last = devices.last else { break }
            after = last.seq
            for device in devices {
                while true {
                    let removed = try await removeReplyTexts(appID: appID, deviceSeq: device.seq, limit: Forgetting.batch)
                    if removed == 0 { break }
                    forgotten.repliesRemoved += removed
                }
                if try await deleteDevice(appID: appID, id: device.id, now: now) { forgotten.devicesDeleted += 1 }
            }
        }
        after = 0
        while true {
            let step = try await forgetUserInAudiences(appID: appID, externalUserID: externalUserID, afterSeq: after, limit: Forgetting.batch)
            forgotten.messagesRewritten += step.rewritten
            guard let last = step.lastSeq else { break }
            after = last
        }
        return forgotten
    }
}

extension Audience {
    /// The same audience without `user`: a user list with `""` in its place (an ID no device can
    /// be registered with, so it matches nothing, and the list keeps its length); nil when the
    /// audience does not list it.
    package func forgetting(_ user: String) -> Audience? {
        guard case .externalUsers(let users) = self, users.contains(user) else { return nil }
        return .externalUsers(users.map { $0 == user ? "" : $0 })
    }
}
