import Foundation
import NotibaseCore
import NotibaseSenders
import Synchronization
@testable import NotibaseServerTestSupport

/// A sender for the credential tests: answers each push as `answer` says, records it, and holds
/// the pushes of an APNs key ID whose gate (``AsyncGate``) is shut until the test opens it.
final class TestingProvider: Sender {
    private let gates: [String: AsyncGate]
    private let answer: @Sendable (Push) -> SendOutcome
    private let recorded = Mutex<[Push]>([])

    init(gates: [String: AsyncGate] = [:], _ answer: @escaping @Sendable (Push) -> SendOutcome) {
        self.gates = gates
        self.answer = answer
    }

    var pushes: [Push] { recorded.withLock { $0 } }

    func send(_ pushes: [Push]) async -> [SendOutcome] {
        recorded.withLock { $0 += pushes }
        for push in pushes {
            if case .apns(let credentials) = push.credentials, case .token(_, let keyID, _) = credentials.authentication, let gate = gates[keyID] {
                await gate.wait()
            }
        }
        return pushes.map(answer)
    }

    func shutdown() async {}

    /// APNs's answer to the token that is nobody's, when it accepts the credentials.
    static let nobodysToken = SendOutcome.apnsAnswer(status: 400, reason: "BadDeviceToken")
}
