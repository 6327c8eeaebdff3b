/// The outcome of a push that got no answer from its provider: always `retry`, with what happened.
enum TransportOutcome {
    /// `retry`, explaining `error` for `provider` ("APNs", "FCM").
    static func retry(after error: TransportError, provider: String, timeout: Duration, resends: Int) -> SendOutcome {
        let explanation = switch error.kind {
        case .connectFailed: "Could not connect to \(provider) (\(error.message)); retried later."
        case .connectionLost: "The connection to \(provider) was lost\(resends > 0 ? " \(resends + 1) times" : "") (\(error.message)); retried later."
        case .timedOut: "No answer from \(provider) within \(timeout); retried later. It may have been delivered."
        case .tls: "TLS with \(provider) failed (\(error.message)); retried later."
        case .shutdown: "The sender shut down before \(provider) answered; retried later."
        case .other: "The request to \(provider) failed (\(error.message)); retried later."
        }
        return SendOutcome(disposition: .retry, explanation: explanation)
    }

    /// `retry` for a push handed to a sender that has shut down.
    static func senderShutDown(provider: String) -> SendOutcome {
        SendOutcome(disposition: .retry, explanation: "The \(provider) sender is shut down; retried later.")
    }

    /// `failed` for a push given to the wrong sender (a bug in the caller).
    static func wrongProvider(expected: String) -> SendOutcome {
        SendOutcome(disposition: .failed, explanation: "Not a \(expected) push (request and credentials must both be \(expected)).")
    }
}
