import Foundation
import Synchronization
package import NotibaseDomain

/// Enforces ``ConnectionLimits``: admits connections by address, and shuts down the socket of
/// any connection past its deadline (a watchdog thread, every ``sweepInterval``), which
/// libmicrohttpd then sees as closed by the client and releases.
///
/// Shutting a socket down from another thread is safe here because libmicrohttpd reports a
/// connection closed (``close(_:)``, under the same lock) before it closes its socket: a socket
/// in the table is still that connection's, never a number reused by a newer one.
package final class ConnectionGuard: Sendable {
    /// Seconds between sweeps.
    package static let sweepInterval = 0.1

    private let table: Mutex<ConnectionTable>
    private let running = Atomic<Bool>(true)
    private let stopped = DispatchSemaphore(value: 0)
    /// Called after each sweep, on the watchdog thread (the body budget's memory trim).
    private let afterSweep: @Sendable () -> Void

    package init(limits: ConnectionLimits, afterSweep: @escaping @Sendable () -> Void = {}) {
        table = Mutex(ConnectionTable(limits: limits))
        self.afterSweep = afterSweep
        let thread = Thread { [self] in watch() }
        thread.name = "notibase-connection-guard"
        thread.start()
    }

    package var limits: ConnectionLimits { table.withLock { $0.limits } }
    package var count: Int { table.withLock { $0.count } }

    package func admits(_ address: IPAddress) -> Bool { table.withLock { $0.admits(address) } }

    package func open(_ id: UInt, socket: Int32, address: IPAddress) {
        let now = ContinuousClock.now
        table.withLock { $0.open(id, socket: socket, address: address, now: now) }
    }

    package func close(_ id: UInt) { table.withLock { $0.close(id) } }

    package func requestLine(_ id: UInt) {
        let now = ContinuousClock.now
        table.withLock { $0.requestLine(id, now: now) }
    }

    package func headRead(_ id: UInt, forwardedFor: String?) -> ConnectionTable.HeadAdmission {
        let now = ContinuousClock.now
        return table.withLock { $0.headRead(id, forwardedFor: forwardedFor, now: now) }
    }

    package func answering(_ id: UInt) { table.withLock { $0.answering(id) } }

    package func readingBody(_ id: UInt) {
        let now = ContinuousClock.now
        table.withLock { $0.readingBody(id, now: now) }
    }

    package func completed(_ id: UInt) {
        let now = ContinuousClock.now
        table.withLock { $0.completed(id, now: now) }
    }

    /// Stops the watchdog and waits for it.
    package func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        stopped.wait()
    }

    private func watch() {
        while running.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: Self.sweepInterval)
            let now = ContinuousClock.now
            table.withLock { table in
                // Under the lock: the connection cannot be reported closed (and its socket
                // closed and reused) meanwhile.
                for socket in table.overdue(now: now) { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            }
            afterSweep()
        }
        stopped.signal()
    }
}
