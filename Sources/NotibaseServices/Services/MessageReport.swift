import NotibaseCore
package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// A message as a service reports it: as stored, with its deliveries counted (not in a list), what
/// stands between it and its audience (a send's and a read's), and whether a send found it stored
/// before under its idempotency key. `MessagesAPI` writes it as the answer.
package struct MessageReport: Sendable {
    package var record: MessageRecord
    package var counts: MessageCounts?
    package var warnings: [MessageService.Warning]?
    package var replayed = false
}

/// A message's deliveries counted: in all, by state, by platform and state.
package struct MessageCounts: Sendable {
    package var total = 0
    package var byState: [String: Int] = [:]
    package var byPlatform: [String: [String: Int]] = [:]
    /// With pacing: deliveries waiting for their moment (local time, quiet hours, their turn at
    /// the rate), and when the last of those written so far is due (milliseconds since 1970).
    package var waiting: Int?
    package var lastDueAt: Int?
    /// Deliveries retrying because the provider refuses the app's credentials, by platform and
    /// reason (only when some are).
    package var waitingForCredentials: [CredentialWait]?
}
