import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of a service extension for one notification: the content handler's calls, from
/// whichever threads the extension makes them.
///
/// The handler only records and signals; it never waits and never calls out, so it can't deadlock
/// whether it is called from `didReceive`, another thread, twice, or from
/// `serviceExtensionTimeWillExpire()`.
final class ExtensionRun: Sendable {
    private let calls = Signal()
    private let firstContent = Locked<ContentFields?>(nil)
    private let termination: ExtensionTermination

    init(termination: ExtensionTermination = .none) {
        self.termination = termination
    }

    /// Records a call of the content handler. The content is snapshotted now, as iOS takes it when
    /// the handler is called: editing the object afterwards changes nothing.
    func contentHandlerCalled(with content: UNNotificationContent) {
        let snapshot = content.snapshot
        firstContent.withLock { first in
            if first == nil { first = snapshot }
        }
        calls.fire()
        if termination == .killProcessAfterContentHandler {
            // As iOS may: the process ends the moment the content is handed over. The system has
            // the content; nothing the extension meant to do afterwards happens.
            kill(getpid(), SIGKILL)
        }
    }

    /// Waits until the handler has been called or `deadline` passes; returns whether it was called.
    func waitForContentHandler(until deadline: ContinuousClock.Instant) -> Bool {
        calls.wait(until: deadline)
    }

    /// How many times the handler has been called so far.
    var callCount: Int {
        calls.count
    }

    /// The content of the first call.
    var content: ContentFields? {
        firstContent.withLock { $0 }
    }
}
