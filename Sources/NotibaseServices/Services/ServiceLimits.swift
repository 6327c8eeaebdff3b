import NotibaseCore
package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// The limits the services apply to requests (`notibase serve` sets them: ServiceLimits).
package struct ServiceLimits: Sendable {
    /// The largest request body, in bytes (larger: 413).
    package var maxBodyBytes = 1 << 20
    /// Requests per second per key, by kind (bursts of twice that); 0 turns a limit off.
    package var rates: [KeyKind: Int] = [.admin: 100, .server: 1_000, .client: 10_000]
    /// Messages each app may create a minute, whatever key it uses (bursts of a minute's
    /// worth), counted by each node; 0 turns the limit off.
    package var appMessagesPerMinute = 60_000
    /// Bytes of stored messages (content and audience as stored) each app may hold, counted
    /// by the database across nodes; a message's bytes are given back when retention removes
    /// it. 0 turns the limit off.
    package var appStoredBytes = 1 << 30
    /// Webhook endpoints each app may have (issue 43: each one is a lookup, a lease and a
    /// request per batch; 40,000 of one app made its list 40 MB).
    package var webhookEndpointsPerApp = 20
    /// Whether an uploaded FCM service account may name any `token_uri`. Only when the
    /// operator set a token URL (`--fcm-token-url`), which the sender then uses instead:
    /// otherwise a tenant could make the server connect wherever it names.
    package var acceptsAnyFCMTokenURI = false
    package init() {}
}
