/// How sending with an app's credentials for one provider went: the state, the last push the
/// provider accepted, the last it refused for the credentials, and why.
package struct CredentialHealth: Sendable, Equatable {
    /// `ok` since a push was accepted, `failing` since the provider refused the credentials,
    /// `untested` until either happens (after every upload).
    package enum State: String, Sendable, Codable {
        case ok, failing, untested
    }

    package var state = State.untested
    package var lastSuccessAt: Int?
    package var lastFailureAt: Int?
    package var lastFailureReason: String?

    /// The credential columns set back to `untested`, for an upload that replaces them (their
    /// test's result too: it was about the old ones).
    package static let resetSQL = "health_state = 'untested', last_success_at = NULL, last_failure_at = NULL, last_failure_reason = NULL, test_result = NULL"

    /// After a batch in which the provider accepted a push with these credentials (`succeeded`),
    /// or refused them and none was accepted (`failureReason`), at `now`.
    package func after(succeeded: Bool, failureReason: String?, now: Int) -> CredentialHealth {
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

    package init(state: State = State.untested, lastSuccessAt: Int? = nil, lastFailureAt: Int? = nil, lastFailureReason: String? = nil) {
        self.state = state
        self.lastSuccessAt = lastSuccessAt
        self.lastFailureAt = lastFailureAt
        self.lastFailureReason = lastFailureReason
    }
}
