import NotibaseCore

/// A message as a service reports it: as stored, with its deliveries counted (not in a list), what
/// stands between it and its audience (a send's and a read's), and whether a send found it stored
/// before under its idempotency key. `MessagesAPI` writes it as the answer.
struct MessageReport: Sendable {
    var record: MessageRecord
    var counts: MessageCounts?
    var warnings: [MessageService.Warning]?
    var replayed = false
}

/// A message's deliveries counted: in all, by state, by platform and state.
struct MessageCounts: Sendable {
    var total = 0
    var byState: [String: Int] = [:]
    var byPlatform: [String: [String: Int]] = [:]
    /// With pacing: deliveries waiting for their moment (local time, quiet hours, their turn at
    /// the rate), and when the last of those written so far is due (milliseconds since 1970).
    var waiting: Int?
    var lastDueAt: Int?
    /// Deliveries retrying because the provider refuses the app's credentials, by platform and
    /// reason (only when some are).
    var waitingForCredentials: [CredentialWait]?
}
