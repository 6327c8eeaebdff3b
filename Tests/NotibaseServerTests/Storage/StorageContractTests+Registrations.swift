import Foundation
import NotibaseCore
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
@testable import NotibaseServerTestSupport

/// What every backend guarantees for registrations that arrive together (a group commit): each
/// answered in the group's order as if it had been committed alone, or none written.
extension StorageContractTests {
    func grouped(_ app: String, _ token: Int, id: String, now: Int = 20, user: String? = nil, replacing previous: Int? = nil,
                 protected: Bool = false) -> GroupedRegistration {
        var upsert = DeviceUpsert(platform: .ios, token: String(format: "%064x", token), externalUserID: user, previousToken: previous.map { String(format: "%064x", $0) })
        upsert.protectsVerifiedUsers = protected
        return GroupedRegistration(appID: app, upsert: upsert, newID: id, now: now)
    }

    /// New devices, a device named twice, a replaced token and another app's device in one group:
    /// the answers are those of the registrations one after the other.
    @Test func registrationsTogetherAreAnsweredAsIfOneAfterTheOther() async throws {
        let app = try await app()
        let other = try await self.app("other")
        let answers = try await store.registerDevices(together: [
            grouped(app, 1, id: "d1"), grouped(app, 2, id: "d2", user: "u2"), grouped(other, 1, id: "o1"),
            grouped(app, 1, id: "unused", now: 30, user: "u1"),
            grouped(app, 3, id: "d3", now: 40, replacing: 2), grouped(app, 2, id: "unused-too", now: 50),
        ])
        #expect(answers.map(\.device.id) == ["d1", "d2", "o1", "d1", "d3", "d2"])
        #expect(answers.map(\.created) == [true, true, true, false, true, false])
        #expect(answers[3].device.externalUserID == "u1" && answers[3].device.updatedAt == 30)
        // The replaced token's device was deactivated, then registered again after it.
        #expect(answers[5].device.active && answers[5].device.externalUserID == "u2" && answers[5].device.updatedAt == 50)
        #expect(try await store.device(appID: app, id: "d1")?.externalUserID == "u1")
        #expect(try await store.devices(appID: app, filter: DeviceFilter(), afterSeq: 0, limit: 10).count == 3)
        #expect(try await store.devices(appID: other, filter: DeviceFilter(), afterSeq: 0, limit: 10).map(\.id) == ["o1"])
    }

    /// A registration refused (a device verified as another user) fails the group as a whole:
    /// nothing of it is written, so each can be tried again alone.
    @Test func aRefusedRegistrationWritesNothingOfItsGroup() async throws {
        let app = try await app()
        _ = try await store.registerDevices(together: [grouped(app, 1, id: "d1", user: "alice")])
        await #expect(throws: DeviceUpsert.claimedByAnotherUser) {
            try await store.registerDevices(together: [grouped(app, 2, id: "d2"), grouped(app, 1, id: "unused", user: "mallory", protected: true)])
        }
        #expect(try await store.device(appID: app, id: "d2") == nil)
        #expect(try await store.device(appID: app, id: "d1")?.externalUserID == "alice")
    }
}
