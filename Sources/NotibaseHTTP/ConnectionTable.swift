package import NotibaseDomain
/// Every open connection of the HTTP server: whose it is, and by when its request must have
/// arrived. A pure state machine (time is passed in), driven by libmicrohttpd's callbacks through
/// ``ConnectionGuard``.
package struct ConnectionTable {
    package typealias Instant = ContinuousClock.Instant

    /// Where a connection is in its request.
    package enum Phase {
        /// Opened; its first head must be complete by the deadline.
        case opened
        /// Kept alive after an answer; its next request line must arrive by the deadline.
        case idle
        /// A later request's line arrived; its head must be complete by the deadline.
        case head
        /// The head is read; the body must be complete by the deadline.
        case body
        /// The request is being answered: the server's own time, no deadline.
        case answering
    }

    package struct Entry {
        package var socket: Int32
        package var address: IPAddress
        package var phase: Phase
        package var deadline: Instant?
        /// The client a request in progress is counted for (the peer, or a proxy's client).
        package var client: IPAddress?
        /// Whether its socket was shut down for being late.
        package var closing = false
    }

    package let limits: ConnectionLimits
    package private(set) var entries: [UInt: Entry] = [:]
    private var perAddress: [IPAddress: Int] = [:]
    private var requestsPerClient: [IPAddress: Int] = [:]

    package init(limits: ConnectionLimits) {
        self.limits = limits
    }

    package var count: Int { entries.count }

    /// Whether a new connection from `address` is taken.
    package func admits(_ address: IPAddress) -> Bool {
        guard entries.count < limits.total else { return false }
        if limits.trustedProxies.contains(address) { return true }
        let held = perAddress[address.limitKey, default: 0]
        if held >= limits.perAddress { return false }
        // The last `reserved` places go only to addresses that hold none.
        return held == 0 || entries.count < limits.total - limits.reserved
    }

    package mutating func open(_ id: UInt, socket: Int32, address: IPAddress, now: Instant) {
        entries[id] = Entry(socket: socket, address: address, phase: .opened, deadline: now + limits.head)
        perAddress[address.limitKey, default: 0] += 1
    }

    package mutating func close(_ id: UInt) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        release(entry.address.limitKey, in: &perAddress)
        if let client = entry.client { release(client, in: &requestsPerClient) }
    }

    /// A request line arrived: a later request's head has `head` from now; the first request's
    /// deadline still counts from the connection's opening.
    package mutating func requestLine(_ id: UInt, now: Instant) {
        guard entries[id]?.phase == .idle else { return }
        entries[id]?.phase = .head
        entries[id]?.deadline = now + limits.head
    }

    /// Whether a request whose head is read goes on, and for whom it is counted.
    package enum HeadAdmission: Equatable {
        /// It goes on; `client` is its client's ``IPAddress/limitKey`` (nil for a connection the
        /// table does not know).
        case admitted(client: IPAddress?)
        /// Its client has ``ConnectionLimits/perAddress`` requests in progress already.
        case refused
    }

    /// The head is read: counts the request for its client (the peer, or for a trusted proxy the
    /// client its `X-Forwarded-For` names) and gives the body its deadline.
    package mutating func headRead(_ id: UInt, forwardedFor: String?, now: Instant) -> HeadAdmission {
        guard var entry = entries[id] else { return .admitted(client: nil) }
        let client = limits.trustedProxies.contains(entry.address) ? self.client(forwardedFor) ?? entry.address : entry.address
        let key = client.limitKey
        if entry.client == nil {
            guard requestsPerClient[key, default: 0] < limits.perAddress else { return .refused }
            requestsPerClient[key, default: 0] += 1
            entry.client = key
        }
        entry.phase = .body
        entry.deadline = now + limits.body
        entries[id] = entry
        return .admitted(client: key)
    }

    /// The request is being answered (or waits for the server): no deadline.
    package mutating func answering(_ id: UInt) {
        entries[id]?.phase = .answering
        entries[id]?.deadline = nil
    }

    /// Its body may be read again after a wait (a key looked up): the body's deadline from now.
    package mutating func readingBody(_ id: UInt, now: Instant) {
        entries[id]?.phase = .body
        entries[id]?.deadline = now + limits.body
    }

    /// The request is done; the connection, if kept alive, waits for the next.
    package mutating func completed(_ id: UInt, now: Instant) {
        guard var entry = entries[id] else { return }
        if let client = entry.client { release(client, in: &requestsPerClient) }
        entry.client = nil
        entry.phase = .idle
        entry.deadline = now + limits.idle
        entries[id] = entry
    }

    /// The sockets of connections past their deadline, each returned once.
    package mutating func overdue(now: Instant) -> [Int32] {
        var sockets: [Int32] = []
        for (id, entry) in entries where !entry.closing {
            guard let deadline = entry.deadline, deadline <= now else { continue }
            entries[id]?.closing = true
            sockets.append(entry.socket)
        }
        return sockets
    }

    /// The client an `X-Forwarded-For` names: the right-most entry that is not a trusted proxy
    /// (entries further left are the client's say, which anyone can forge).
    private func client(_ forwardedFor: String?) -> IPAddress? {
        guard let forwardedFor else { return nil }
        for part in forwardedFor.split(separator: ",").reversed() {
            guard let address = IPAddress(part) else { return nil }
            if !limits.trustedProxies.contains(address) { return address }
        }
        return nil
    }

    private func release(_ key: IPAddress, in counts: inout [IPAddress: Int]) {
        let left = counts[key, default: 1] - 1
        counts[key] = left > 0 ? left : nil
    }
}
