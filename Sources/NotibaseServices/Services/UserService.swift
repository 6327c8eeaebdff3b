import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Users: forgetting one (docs/decisions/0023). `UsersAPI` checks the ID and the key.
package struct UserService: Sendable {
    let store: any DevicesStore
    package let clock: WallClock
    package let logger: Logger

    /// Deletes every device of `user` in the app, removes what they typed from the delivery log
    /// and their ID from the audiences that listed it; returns how much of each.
    package func delete(appID: String, externalUserID user: String) async throws -> ForgottenUser {
        let forgotten = try await store.deleteUser(appID: appID, externalUserID: user, now: clock.milliseconds())
        logger.info("user deleted", [
            "appId": .string(appID), "devices": .int(forgotten.devicesDeleted), "replies": .int(forgotten.repliesRemoved),
            "messages": .int(forgotten.messagesRewritten),
        ])
        return forgotten
    }

    package init(store: any DevicesStore, clock: WallClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }
}
