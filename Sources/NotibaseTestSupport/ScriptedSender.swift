package import NotibaseSenders
import Synchronization

/// A sender that answers with a script and records every push it was handed.
package final class ScriptedSender: Sender {
    private let script: @Sendable (Push) -> SendOutcome
    private let recorded = Mutex<[Push]>([])

    /// A sender whose outcome for each push is `script`'s; by default every push is sent.
    package init(_ script: @escaping @Sendable (Push) -> SendOutcome = { .sent(providerID: "p-" + $0.deliveryID) }) {
        self.script = script
    }

    /// Every push handed to it, in order.
    package var pushes: [Push] { recorded.withLock { $0 } }

    package func send(_ pushes: [Push]) async -> [SendOutcome] {
        recorded.withLock { $0 += pushes }
        return pushes.map(script)
    }

    package func shutdown() async {}
}
