package import NotibaseDomain
import NotibaseStore
import NotibaseOutbound
extension IPAddress {
    /// Where an address leads, for the webhook address policy: only `.public` addresses are ones
    /// the internet routes to someone else's server. An IPv4-mapped IPv6 address is its IPv4
    /// address, and so are NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`) addresses, which reach it.
    package enum Scope: String, Sendable {
        case `public`
        case loopback
        /// 10/8, 172.16/12, 192.168/16, fc00::/7.
        case `private`
        /// 100.64/10.
        case carrierGradeNAT = "carrier-grade NAT"
        /// 169.254/16, fe80::/10.
        case linkLocal = "link-local"
        /// 169.254.169.254 and fd00:ec2::254, where clouds answer with a machine's credentials.
        case cloudMetadata = "cloud metadata"
        case multicast
        case unspecified
        case broadcast
        /// Neither public nor one of the above: 0/8, 192.0.0/24, 198.18/15, 240/4, IPv6 outside
        /// 2000::/3, Teredo, IPv4-compatible IPv6, the discard prefix.
        case reserved
    }

    package var scope: Scope {
        if isIPv4 { return Self.scope(ipv4: UInt32(truncatingIfNeeded: low)) }
        switch high {
        case 0 where low == 0: return .unspecified
        case 0 where low == 1: return .loopback
        case 0: return .reserved
        case 0x0064_ff9b_0000_0000 where low >> 32 == 0: return Self.scope(ipv4: UInt32(truncatingIfNeeded: low))
        case 0x0100_0000_0000_0000: return .reserved
        case 0xfd00_0ec2_0000_0000 where low == 0x254: return .cloudMetadata
        default: break
        }
        if high >> 48 == 0x2002 { return Self.scope(ipv4: UInt32(truncatingIfNeeded: high >> 16)) }
        if high >> 32 == 0x2001_0000 { return .reserved }
        if high >> 57 == 0x7e { return .private }
        if high >> 54 == 0x3fa { return .linkLocal }
        if high >> 56 == 0xff { return .multicast }
        if high >> 61 != 1 { return .reserved }
        return .public
    }

    private static func scope(ipv4 value: UInt32) -> Scope {
        func within(_ network: UInt32, _ bits: UInt32) -> Bool { value >> (32 - bits) == network >> (32 - bits) }
        switch value {
        case 0: return .unspecified
        case 0xFFFF_FFFF: return .broadcast
        case 0xA9FE_A9FE: return .cloudMetadata
        default: break
        }
        if within(0x7F00_0000, 8) { return .loopback }
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) { return .private }
        if within(0x6440_0000, 10) { return .carrierGradeNAT }
        if within(0xA9FE_0000, 16) { return .linkLocal }
        if within(0xE000_0000, 4) { return .multicast }
        if within(0x0000_0000, 8) || within(0xF000_0000, 4) || within(0xC000_0000, 24) || within(0xC612_0000, 15) { return .reserved }
        return .public
    }
}

extension IPAddress.Scope {
    /// Whether a webhook may go to an address of this scope: a public one, or with `insecure`
    /// (`--webhook-allow-insecure`) a loopback or private one too; never the rest.
    package func isAllowed(insecure: Bool) -> Bool {
        switch self {
        case .public: true
        case .loopback, .private: insecure
        default: false
        }
    }
}
