import Foundation
package import NotibaseDomain
import NotibaseStore
import NotibaseOutbound

/// Resolves an endpoint's host name. The transport asks at registration and again for every
/// attempt (through ``WebhookLookups``, which bounds and times them), checks every address the
/// answer holds, and connects to one of exactly those.
package protocol WebhookResolver: Sendable {
    /// Every address (IPv4 and IPv6) `host` resolves to now; empty when it resolves to none. May
    /// take as long as the system's resolver does: the caller bounds the wait.
    func addresses(of host: String) async -> [IPAddress]
}

/// The system's resolver: `getaddrinfo`, so `/etc/hosts` and DNS as `/etc/nsswitch.conf` says. It
/// blocks, so it runs on threads of its own (``LookupThreads``), never on Swift's or Dispatch's
/// shared ones.
package struct SystemResolver: WebhookResolver {
    /// The most lookups running at once, on as many threads.
    package static let threads = 32
    private let lookUp: @Sendable (String) -> [IPAddress]
    private let pool: LookupThreads

    /// `lookUp` blocks for as long as it takes (tests give one that never answers).
    package init(threads: Int = Self.threads, lookUp: @escaping @Sendable (String) -> [IPAddress] = Self.lookUp) {
        self.lookUp = lookUp
        pool = LookupThreads(limit: threads)
    }

    package func addresses(of host: String) async -> [IPAddress] {
        await withCheckedContinuation { continuation in
            pool.run { [lookUp] in continuation.resume(returning: lookUp(host)) }
        }
    }

    @Sendable package static func lookUp(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &found) == 0 else { return [] }
        defer { freeaddrinfo(found) }
        var addresses: [IPAddress] = []
        var entry = found
        while let current = entry {
            if let address = current.pointee.ai_addr.flatMap({ IPAddress(UnsafePointer($0)) }), !addresses.contains(address) {
                addresses.append(address)
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
