package import Foundation

/// A client's IP address, IPv4 held as IPv4-mapped IPv6 (`::ffff:a.b.c.d`), so both compare alike.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    package let high: UInt64
    package let low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// An IPv4 address as four bytes in network order.
    package init(ipv4 bytes: UInt32) {
        self.init(high: 0, low: 0xffff << 32 | UInt64(UInt32(bigEndian: bytes)))
    }

    /// An address from a socket address (IPv4 or IPv6); nil for any other family.
    package init?(_ address: UnsafePointer<sockaddr>) {
        // The family read from its bytes: which C module declares `sockaddr` depends on the order
        // modules load in, and a member seen through the other is refused (MemberImportVisibility).
        #if canImport(Darwin)
        let family = Int32(UnsafeRawPointer(address).load(fromByteOffset: 1, as: UInt8.self))
        #else
        let family = Int32(UnsafeRawPointer(address).loadUnaligned(as: UInt16.self))
        #endif
        switch family {
        case AF_INET:
            let v4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            self.init(ipv4: v4.sin_addr.s_addr)
        case AF_INET6:
            let v6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            self.init(bytes: v6.sin6_addr)
        default:
            return nil
        }
    }

    /// An address in text (`203.0.113.7`, `2001:db8::1`, `[2001:db8::1]`); nil when it is none.
    package init?(_ text: some StringProtocol) {
        let text = String(text).trimmingCharacters(in: CharacterSet(charactersIn: " \t[]"))
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(ipv4: v4.s_addr)
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            self.init(bytes: v6)
        } else {
            return nil
        }
    }

    private init(bytes: in6_addr) {
        let raw = withUnsafeBytes(of: bytes) { Array($0) }
        let high = raw[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = raw[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(high: high, low: low)
    }

    /// Whether this is an IPv4 address (mapped).
    package var isIPv4: Bool { high == 0 && low >> 32 == 0xffff }

    /// What per-address limits count by: an IPv4 address whole, an IPv6 address by its /64 (what
    /// one subscriber is usually given, so rotating within it does not escape the limit).
    package var limitKey: IPAddress { isIPv4 ? self : IPAddress(high: high, low: 0) }

    package var description: String {
        if isIPv4 {
            let value = UInt32(truncatingIfNeeded: low)
            return "\(value >> 24).\(value >> 16 & 0xff).\(value >> 8 & 0xff).\(value & 0xff)"
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = bytes.withUnsafeBytes { inet_ntop(AF_INET6, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
