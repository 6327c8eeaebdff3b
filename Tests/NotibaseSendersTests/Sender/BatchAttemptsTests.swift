import Testing
@testable import NotibaseSenders

@Suite("Batch attempts: what is resent, what is final")
struct BatchAttemptsTests {
    private let lost = TransportError(kind: .connectionLost, cause: .http2Protocol, message: "GOAWAY")
    private let timedOut = TransportError(kind: .timedOut, cause: .timeout, message: "timeout")
    private let sent = SendOutcome.sent(providerID: "x")
    private let rejected = SendOutcome(disposition: .credentialsRejected)
    private func retry(_ error: TransportError, _ resends: Int) -> SendOutcome {
        SendOutcome(disposition: .retry, explanation: "\(error.kind) after \(resends)")
    }

    @Test("a lost connection is resent up to the limit, then ends as retry with the count")
    func lostConnections() {
        var attempts = BatchAttempts(count: 2, maxResends: 2)
        for _ in 0..<3 {
            #expect(attempts.pending.contains(0))
            for index in attempts.pending {
                if index == 0 { attempts.failed(0, lost, outcome: retry) } else { attempts.answered(1, .sent, outcome: sent) }
            }
            _ = attempts.endRound()
        }
        #expect(attempts.isFinished)
        #expect(attempts.results[0].explanation == "connectionLost after 2")
        #expect(attempts.results[1] == sent)
    }

    @Test("a timeout is never resent: the push may have been delivered")
    func timeoutIsFinal() {
        var attempts = BatchAttempts(count: 1, maxResends: 5)
        attempts.failed(0, timedOut, outcome: retry)
        #expect(attempts.endRound() == false)
        #expect(attempts.isFinished)
        #expect(attempts.results[0].disposition == .retry)
    }

    @Test("a refused credential renews once for the whole round, then the fallback outcome stands")
    func renewOnce() {
        var attempts = BatchAttempts(count: 3, maxResends: 1)
        attempts.answered(0, .renewCredentialOnce, outcome: rejected)
        attempts.answered(1, .renewCredentialOnce, outcome: rejected)
        attempts.answered(2, .sent, outcome: sent)
        #expect(attempts.endRound() == true)
        #expect(attempts.pending == [0, 1])
        attempts.answered(0, .sent, outcome: sent)
        attempts.answered(1, .renewCredentialOnce, outcome: rejected)
        #expect(attempts.endRound() == false)
        #expect(attempts.isFinished)
        #expect(attempts.results.map(\.disposition) == [.sent, .credentialsRejected, .sent])
    }

    @Test("resend-once does not ask for a new credential")
    func resendOnce() {
        var attempts = BatchAttempts(count: 1, maxResends: 0)
        attempts.answered(0, .resendOnce, outcome: rejected)
        #expect(attempts.endRound() == false)
        #expect(attempts.pending == [0])
        attempts.answered(0, .resendOnce, outcome: rejected)
        _ = attempts.endRound()
        #expect(attempts.results == [rejected])
    }
}
