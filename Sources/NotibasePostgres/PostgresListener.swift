#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
package import NotibaseDomain

/// Hears the work nodes announce (`pg_notify` on the store's channel, sent by the store inside the
/// transactions that make work: a new message, a fan-out batch) on a connection of its own, on a
/// thread of its own, and passes it on. A lost connection is re-established; after each (re)start
/// it passes on both kinds of work, since what was announced meanwhile went unheard.
package final class PostgresListener: Sendable {
    private let url: String
    private let channel: String
    private let wake: @Sendable (AnnouncedWork) -> Void
    private let stopped = Atomic(false)

    package init(url: String, channel: String, wake: @escaping @Sendable (AnnouncedWork) -> Void) {
        self.url = url
        self.channel = channel
        self.wake = wake
    }

    package func start() {
        let thread = Thread { [self] in listen() }
        thread.name = "notibase-postgres-listener"
        thread.start()
    }

    /// Stops listening within half a second.
    package func stop() { stopped.store(true, ordering: .relaxed) }

    private func listen() {
        while !stopped.load(ordering: .relaxed) {
            do {
                let connection = try PostgresConnection(url: url)
                // The channel as a quoted identifier (it holds the schema's name).
                try connection.execute("LISTEN \"\(channel.replacingOccurrences(of: "\"", with: "\"\""))\"")
                for work in AnnouncedWork.allCases { wake(work) }
                while !stopped.load(ordering: .relaxed) {
                    guard let socket = connection.socket else { break }
                    var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                    if poll(&descriptor, 1, 500) > 0 {
                        for payload in try connection.notifications(on: channel) {
                            if let work = AnnouncedWork(rawValue: payload) { wake(work) }
                        }
                    }
                }
            } catch {
                // The database is away; look again in a second (the nodes poll meanwhile).
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }
}
