/// Every answer APNs documents, in one table: status and reason → what Notibase does, and why.
///
/// Reasons APNs adds later fall back on their status (`fallback(status:)`), keeping their text.
enum APNsAnswerTable {
    /// One row: the status APNs sends the reason with, the action, and our explanation.
    struct Row: Sendable, Hashable {
        var status: Int
        var reason: APNsReason
        var action: ProviderAction
        var explanation: String
    }

    /// The documented answers.
    static let rows: [Row] = [
        Row(status: 400, reason: .badCollapseId, action: .failed, explanation: "The collapse ID is longer than 64 bytes; shorten it."),
        Row(status: 400, reason: .badDeviceToken, action: .deactivateDevice, explanation: "The device token is not valid in the environment it was sent to (named after this text). Often it is a development build's sandbox token sent to production, or the reverse: the device's registration named the wrong apnsEnvironment, or named none and the app's default is the other one. Not retried in the other environment; the device's next registration with the right environment reactivates it."),
        Row(status: 400, reason: .badExpirationDate, action: .failed, explanation: "The apns-expiration value is not valid."),
        Row(status: 400, reason: .badMessageId, action: .failed, explanation: "The apns-id value is not a valid UUID."),
        Row(status: 400, reason: .badPriority, action: .failed, explanation: "The apns-priority value is not 1, 5 or 10."),
        Row(status: 400, reason: .badTopic, action: .credentialsRejected, explanation: "APNs refuses the topic: check the app's bundle ID."),
        Row(status: 400, reason: .deviceTokenNotForTopic, action: .deactivateDevice, explanation: "The device token belongs to another app (topic): the device is deactivated for this app."),
        Row(status: 400, reason: .duplicateHeaders, action: .failed, explanation: "A header was repeated."),
        Row(status: 400, reason: .idleTimeout, action: .retry, explanation: "APNs closed an idle connection; the push is retried on a new one."),
        Row(status: 400, reason: .invalidPushType, action: .failed, explanation: "The apns-push-type value is not valid."),
        Row(status: 400, reason: .missingDeviceToken, action: .failed, explanation: "The request path had no device token."),
        Row(status: 400, reason: .missingTopic, action: .failed, explanation: "The request had no apns-topic."),
        Row(status: 400, reason: .payloadEmpty, action: .failed, explanation: "The payload was empty."),
        Row(status: 400, reason: .topicDisallowed, action: .credentialsRejected, explanation: "Pushing to this topic is not allowed: check the app's bundle ID and its push capability."),
        Row(status: 403, reason: .badCertificate, action: .credentialsRejected, explanation: "APNs refused the client certificate: upload a valid push certificate."),
        Row(status: 403, reason: .badCertificateEnvironment, action: .credentialsRejected, explanation: "The client certificate is for the other environment (sandbox or production)."),
        Row(status: 403, reason: .expiredProviderToken, action: .renewCredentialOnce, explanation: "The provider token is older than an hour (or the server's clock is wrong): a new token is made; if APNs refuses that too, check the clock and the key."),
        Row(status: 403, reason: .forbidden, action: .credentialsRejected, explanation: "APNs forbids this action for these credentials."),
        Row(status: 403, reason: .invalidProviderToken, action: .renewCredentialOnce, explanation: "APNs could not verify the provider token: check the key ID, the team ID and that the .p8 key is not revoked."),
        Row(status: 403, reason: .missingProviderToken, action: .credentialsRejected, explanation: "No provider token and no client certificate: give the app a .p8 key or a certificate."),
        Row(status: 403, reason: .unrelatedKeyIdInToken, action: .credentialsRejected, explanation: "The token's key ID differs from the one first used on this connection."),
        Row(status: 403, reason: .badEnvironmentKeyInToken, action: .credentialsRejected, explanation: "The key is not enabled for this environment (sandbox or production)."),
        Row(status: 404, reason: .badPath, action: .failed, explanation: "The request path was not /3/device/<token>."),
        Row(status: 405, reason: .methodNotAllowed, action: .failed, explanation: "APNs accepts only POST."),
        Row(status: 410, reason: .expiredToken, action: .deactivateDevice, explanation: "The device token has expired: the device must register again."),
        Row(status: 410, reason: .unregistered, action: .deactivateDevice, explanation: "The device token is no longer active for the topic (the app was removed or notifications turned off)."),
        Row(status: 413, reason: .payloadTooLarge, action: .failed, explanation: "The payload is over 4096 bytes; shorten the message."),
        Row(status: 429, reason: .tooManyProviderTokenUpdates, action: .resendOnce, explanation: "The provider token changed too often (more than once in 20 minutes): check that one key is not shared by several senders making their own tokens."),
        Row(status: 429, reason: .tooManyRequests, action: .retry, explanation: "Too many pushes to this device in a short time; retried later."),
        Row(status: 500, reason: .internalServerError, action: .retry, explanation: "APNs had an internal error; retried later."),
        Row(status: 503, reason: .serviceUnavailable, action: .retry, explanation: "APNs is unavailable; retried later."),
        Row(status: 503, reason: .shutdown, action: .retry, explanation: "The APNs server is shutting down; retried on a new connection."),
    ]

    private static let byReason: [APNsReason: Row] = Dictionary(rows.map { ($0.reason, $0) }, uniquingKeysWith: { first, _ in first })

    /// The row for an answer: the documented one for a known reason, else one built from the status.
    static func row(status: Int, reason: APNsReason?) -> Row {
        if status == 200 { return Row(status: 200, reason: APNsReason(""), action: .sent, explanation: "Accepted by APNs.") }
        if let reason, let row = byReason[reason] { return row }
        return fallback(status: status, reason: reason ?? APNsReason(""))
    }

    /// An answer the table does not know: its status decides, erring on the side of keeping the
    /// device and the delivery (no deactivation unless APNs says 410).
    static func fallback(status: Int, reason: APNsReason) -> Row {
        let (action, explanation): (ProviderAction, String) = switch status {
        case 403: (.credentialsRejected, "APNs refused the credentials for a reason Notibase does not know.")
        case 410: (.deactivateDevice, "APNs says the device token is no longer active.")
        case 429, 500...599: (.retry, "APNs had a transient problem Notibase does not know; retried later.")
        case 400...499: (.failed, "APNs refused this push for a reason Notibase does not know.")
        default: (.retry, "APNs answered with an unexpected status; retried later.")
        }
        return Row(status: status, reason: reason, action: action, explanation: explanation)
    }
}
