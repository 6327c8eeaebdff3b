import Foundation
package import NotibaseDomain
import NotibaseStore
import NotibaseOutbound

/// An endpoint's URL as the transport uses it, parsed once and strictly: the scheme, the host it
/// resolves and verifies, the port, and the request target. What is refused is named in words that
/// never repeat the URL's user information or query (which may hold secrets).
package struct WebhookURL: Sendable, Equatable {
    /// The longest URL accepted, in bytes.
    package static let maxLength = 2_000

    /// `https` (false only for `http`, which `allowInsecure` permits).
    package var isTLS: Bool
    /// Lowercased; an IPv6 address without its brackets.
    package var host: String
    package var port: UInt16
    /// The path and query as the request line sends them (`/` when the URL has none); no fragment.
    package var target: String

    /// The `Host` header: the host (bracketed when IPv6), and the port unless it is the scheme's own.
    package var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isTLS ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// The host as an IP address when the URL names one rather than a name.
    package var literalAddress: IPAddress? { IPAddress(host) }

    /// The refusal of `address`, one this URL's host is or resolves to. A name's addresses are
    /// never told: a server key would map the names of the network the server sits in (issue 43).
    /// An address in the URL is the caller's own.
    package func refusal(of address: IPAddress) -> WebhookURLRefusal {
        let resolution = literalAddress == nil ? "the host '\(host)' resolves to" : "the host \(address) is"
        let development = [.loopback, .private].contains(address.scope) ? " (\(WebhookURLRefusal.developmentFlag) allows it, for development only)" : ""
        return WebhookURLRefusal(reason: .forbiddenAddress, detail: "\(resolution) a \(address.scope.rawValue) address, not a public one\(development)")
    }

    /// What the policy makes of a URL at registration and at every attempt.
    enum Check {
        /// The URL, and the one address to connect to for it, which passed the policy.
        case pinned(WebhookURL, IPAddress)
        case refused(WebhookURLRefusal)
        /// The host's lookup did not answer by the deadline.
        case timedOut(host: String)

        /// Why the URL may not be registered, or nil. A lookup that did not answer is said as a
        /// name that does not resolve is: no more is told about the resolver's answers.
        var refusal: WebhookURLRefusal? {
            switch self {
            case .pinned: nil
            case .refused(let refusal): refusal
            case .timedOut(let host): WebhookURLRefusal.unresolvable(host)
            }
        }
    }

    /// `text` parsed, and the address to connect to: the URL's own when it is an address, else one
    /// its host resolves to now (IPv4 first), once every address it resolves to passed the policy.
    static func check(_ text: String, allowInsecure: Bool, lookups: WebhookLookups, appID: String, deadline: ContinuousClock.Instant) async -> Check {
        let url: WebhookURL
        switch parse(text, allowInsecure: allowInsecure) {
        case .success(let parsed): url = parsed
        case .failure(let refusal): return .refused(refusal)
        }
        let literal = url.literalAddress.map { [$0] }
        guard let addresses = literal != nil ? literal : await lookups.addresses(of: url.host, appID: appID, deadline: deadline) else {
            return .timedOut(host: url.host)
        }
        guard let first = addresses.first(where: \.isIPv4) ?? addresses.first else { return .refused(.unresolvable(url.host)) }
        if let refused = addresses.first(where: { !$0.scope.isAllowed(insecure: allowInsecure) }) {
            return .refused(url.refusal(of: refused))
        }
        return .pinned(url, first)
    }

    /// Parses `text`; only `https` unless `allowInsecure`.
    package static func parse(_ text: String, allowInsecure: Bool) -> Result<WebhookURL, WebhookURLRefusal> {
        func malformed(_ detail: String) -> Result<WebhookURL, WebhookURLRefusal> { .failure(WebhookURLRefusal(reason: .malformed, detail: detail)) }
        let bytes = Array(text.utf8)
        guard bytes.count <= maxLength else { return malformed("the URL is longer than \(maxLength) characters") }
        // A space, a control character or a raw non-ASCII byte would end or bend the request line.
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return malformed("the URL holds spaces, control or non-ASCII characters (percent-encode them)")
        }
        guard let separator = text.range(of: "://") else { return malformed("not an absolute URL (https://host/path)") }
        let isTLS: Bool
        switch text[..<separator.lowerBound].lowercased() {
        case "https": isTLS = true
        case "http" where allowInsecure: isTLS = false
        case "http": return .failure(WebhookURLRefusal(reason: .notHTTPS, detail: "the URL must be https, not http (\(WebhookURLRefusal.developmentFlag) allows http, for development only)"))
        default: return .failure(WebhookURLRefusal(reason: .notHTTPS, detail: "the URL's scheme must be https"))
        }
        var rest = text[separator.upperBound...]
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let target = rest[authorityEnd...]
        guard !authority.contains("@") else { return malformed("user information (user:password@) is not allowed in an endpoint URL") }
        var host = Substring(authority)
        var portText: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return malformed("the URL's IPv6 host has no closing bracket") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return malformed("the URL's host is not valid") }
            portText = after.dropFirst()
            guard host.contains(":"), IPAddress(host) != nil else { return malformed("the URL's host is not a valid IPv6 address") }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { return malformed("the URL has no host") }
        guard authority.hasPrefix("[") || host.utf8.allSatisfy({ isHostNameByte($0) }) else {
            return malformed("the URL's host '\(host)' is not a host name (letters, digits, '-' and '.')")
        }
        var port: UInt16 = isTLS ? 443 : 80
        if !portText.isEmpty {
            guard portText.utf8.count <= 5, portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(portText), (1...65_535).contains(number) else {
                return malformed("the URL's port must be a number from 1 to 65535")
            }
            port = UInt16(number)
        }
        let requestTarget = target.isEmpty ? "/" : target.hasPrefix("?") ? "/" + target : String(target)
        return .success(WebhookURL(isTLS: isTLS, host: host.lowercased(), port: port, target: requestTarget))
    }

    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"): true
        default: false
        }
    }
}
