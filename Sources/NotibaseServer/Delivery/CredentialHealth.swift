/// How sending with an app's credentials for one provider went: the state, the last push the
/// provider accepted, the last it refused for the credentials, and why.
struct CredentialHealth: Sendable, Equatable {
    /// `ok` since a push was accepted, `failing` since the provider refused the credentials,
    /// `untested` until either happens (after every upload).
    enum State: String, Sendable, Codable {
        case ok, failing, untested
    }

    var state = State.untested
    var lastSuccessAt: Int?
    var lastFailureAt: Int?
    var lastFailureReason: String?

    /// The credential columns set back to `untested`, for an upload that replaces them (their
    /// test's result too: it was about the old ones).
    static let resetSQL = "health_state = 'untested', last_success_at = NULL, last_failure_at = NULL, last_failure_reason = NULL, test_result = NULL"

    /// After a batch in which the provider accepted a push with these credentials (`succeeded`),
    /// or refused them and none was accepted (`failureReason`), at `now`.
    func after(succeeded: Bool, failureReason: String?, now: Int) -> CredentialHealth {
        var next = self
        if let failureReason {
            next.lastFailureAt = now
            next.lastFailureReason = failureReason
        }
        if succeeded {
            next.state = .ok
            next.lastSuccessAt = now
        } else if failureReason != nil {
            next.state = .failing
        }
        return next
    }
}
