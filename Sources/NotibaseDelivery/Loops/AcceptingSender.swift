import Foundation
package import NotibaseSenders
import Synchronization
import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// A sender that sends nothing and accepts every push at once, appending each delivery ID it was
/// handed to a file (one per line) when given one. `notibase serve --sender accept`: what a
/// benchmark uses to measure the server without a provider, and a crash test to count the
/// deliveries handed out twice. Never for production (nothing reaches a phone).
package final class AcceptingSender: Sender {
    private let log: Mutex<FileHandle?>
    private let count = Atomic<Int>(0)

    /// A sender that records to `recordPath` (appending) when it is given.
    package init(recordPath: String? = nil) throws {
        if let recordPath {
            if !FileManager.default.fileExists(atPath: recordPath) {
                _ = FileManager.default.createFile(atPath: recordPath, contents: nil)
            }
            guard let handle = FileHandle(forWritingAtPath: recordPath) else {
                throw ConfigurationError("cannot write the accepting sender's record to \(recordPath)")
            }
            handle.seekToEndOfFile()
            log = Mutex(handle)
        } else {
            log = Mutex(nil)
        }
    }

    /// How many pushes it accepted.
    package var sent: Int { count.load(ordering: .relaxed) }

    package func send(_ pushes: [Push]) async -> [SendOutcome] {
        count.add(pushes.count, ordering: .relaxed)
        log.withLock { handle in
            guard let handle else { return }
            var text = ""
            text.reserveCapacity(pushes.count * 37)
            for push in pushes { text += push.deliveryID + "\n" }
            // Written before the outcome is returned: a delivery in the file may still be sent again
            // after a crash, which is what the file is there to count.
            handle.write(Data(text.utf8))
        }
        return pushes.map { .sent(providerID: "accepted-" + $0.deliveryID) }
    }

    package func shutdown() async {
        log.withLock { try? $0?.synchronize() }
    }
}
