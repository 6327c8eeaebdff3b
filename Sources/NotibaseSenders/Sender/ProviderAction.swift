/// What a sender does with a provider's answer: the one classification of it. Both answer tables
/// (`APNsAnswerTable`, `FCMAnswerTable`) map every answer to one of these; `BatchAttempts` resends
/// by it, and `disposition` is what the server is told once the batch is done with the push.
enum ProviderAction: String, Sendable, Hashable {
    /// Accepted: record the provider's identifier.
    case sent
    /// Transient: retried later with backoff, not before `Retry-After` when the provider sent one.
    case retry
    /// Rate limited: retried later, never sooner than the quota floor (a minute for FCM).
    case retryAfterQuota
    /// The provider credential (APNs JWT, FCM access token) was refused: make a new one and resend
    /// once; refused again, the app's credentials are rejected.
    case renewCredentialOnce
    /// Resend once with the same credential (APNs `TooManyProviderTokenUpdates`: a new token would
    /// make it worse); refused again, the app's credentials are rejected.
    case resendOnce
    /// The device token is dead, invalid or belongs elsewhere: deactivate the device.
    case deactivateDevice
    /// This push can never succeed as it is: give up with the reason.
    case failed
    /// The app's credentials or provider setup are wrong: fail loudly; deliveries wait.
    case credentialsRejected

    /// The delivery's disposition when the action has run its course.
    var disposition: SendOutcome.Disposition {
        switch self {
        case .sent: .sent
        case .retry, .retryAfterQuota: .retry
        case .renewCredentialOnce, .resendOnce, .credentialsRejected: .credentialsRejected
        case .deactivateDevice: .deactivateDevice
        case .failed: .failed
        }
    }
}
