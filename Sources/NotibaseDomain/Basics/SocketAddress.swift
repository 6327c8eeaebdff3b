package import Foundation

/// An IPv4 or IPv6 socket address parsed from text.
package struct SocketAddress {
    private var storage = sockaddr_storage()
    package let isIPv6: Bool

    package init(host: String, port: Int) throws {
        guard (0...65_535).contains(port) else { throw ConfigurationError("the port must be from 0 to 65535, not \(port)") }
        let host = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: v4) { target.copyMemory(from: $0) } }
            isIPv6 = false
        } else if inet_pton(AF_INET6, host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: v6) { target.copyMemory(from: $0) } }
            isIPv6 = true
        } else {
            throw ConfigurationError("'\(host)' is not an IP address; listen on an address such as 127.0.0.1, 0.0.0.0 or ::1")
        }
    }

    package func withSockAddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafeBytes(of: storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }
}
