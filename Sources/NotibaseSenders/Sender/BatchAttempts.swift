/// The attempts of one batch of pushes, as a pure state machine the APNs and FCM senders drive:
/// which pushes go out in the next round, which are finished, and whether the provider credential
/// (JWT or access token) must be renewed first.
///
/// A push is resent at once only when its connection was lost (at most `maxResends` times), or
/// once when the provider refused the credential. Anything else is final.
struct BatchAttempts {
    private var outcomes: [SendOutcome?]
    private var resends: [Int]
    private var credentialRetried: [Bool]
    private let maxResends: Int
    /// The pushes (by index) to send in this round.
    private(set) var pending: [Int]
    private var next: [Int] = []
    private var renew = false

    /// A batch of `count` pushes, all pending.
    init(count: Int, maxResends: Int) {
        outcomes = Array(repeating: nil, count: count)
        resends = Array(repeating: 0, count: count)
        credentialRetried = Array(repeating: false, count: count)
        self.maxResends = maxResends
        pending = Array(0..<count)
    }

    /// Whether every push has its outcome.
    var isFinished: Bool { pending.isEmpty }

    /// Records the provider's answer to push `index`: the table's `action` for it, and the
    /// `outcome` that stands once the action has run its course (for a resend, if it was already
    /// resent).
    mutating func answered(_ index: Int, _ action: ProviderAction, outcome: SendOutcome) {
        switch action {
        case .renewCredentialOnce, .resendOnce:
            if credentialRetried[index] {
                outcomes[index] = outcome
            } else {
                credentialRetried[index] = true
                if action == .renewCredentialOnce { renew = true }
                next.append(index)
            }
        case .sent, .retry, .retryAfterQuota, .deactivateDevice, .failed, .credentialsRejected:
            outcomes[index] = outcome
        }
    }

    /// Records that push `index` got no answer; a lost connection is resent while resends remain,
    /// anything else ends as `outcome(error, resendsSoFar)`.
    mutating func failed(_ index: Int, _ error: TransportError, outcome: (TransportError, Int) -> SendOutcome) {
        if error.kind == .connectionLost && resends[index] < maxResends {
            resends[index] += 1
            next.append(index)
        } else {
            outcomes[index] = outcome(error, resends[index])
        }
    }

    /// Ends the round: the pushes to resend become pending. Returns whether the credential must be
    /// renewed before they go.
    mutating func endRound() -> Bool {
        pending = next.sorted()
        next = []
        defer { renew = false }
        return renew
    }

    /// Ends every pending push with `outcome` (the credential could not be had, say).
    mutating func finishPending(with outcome: SendOutcome) {
        for index in pending { outcomes[index] = outcome }
        pending = []
    }

    /// The outcomes, in push order. Only valid once `isFinished`.
    var results: [SendOutcome] {
        outcomes.map { $0 ?? SendOutcome(disposition: .retry, explanation: "No outcome was recorded; retried later.") }
    }
}
