import Foundation

/// Resolves an endpoint's host name. The transport asks at registration and again for every
/// attempt, checks every address the answer holds, and connects to one of exactly those.
protocol WebhookResolver: Sendable {
    /// Every address (IPv4 and IPv6) `host` resolves to now; empty when it resolves to none.
    func addresses(of host: String) async -> [IPAddress]
}

/// The system's resolver: `getaddrinfo`, so `/etc/hosts` and DNS as `/etc/nsswitch.conf` says. It
/// blocks, so it runs on a Dispatch thread, never on Swift's cooperative pool.
struct SystemResolver: WebhookResolver {
    func addresses(of host: String) async -> [IPAddress] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Self.lookUp(host)) }
        }
    }

    private static func lookUp(_ host: String) -> [IPAddress] {
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
