/// The `https://host:port` part of a URL, which connections are shared by, and the path.
struct Origin: Hashable, Sendable {
    var host: String
    var port: UInt16

    /// The `:authority` pseudo-header: the host, with the port unless it is 443.
    var authority: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return port == 443 ? host : "\(host):\(port)"
    }

    /// Splits an absolute `https://` URL into its origin and its path (with query), or nil.
    static func parse(_ url: String) -> (origin: Origin, path: String)? {
        guard url.hasPrefix("https://") else { return nil }
        let rest = url.dropFirst("https://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        let path = slash == rest.endIndex ? "/" : String(rest[slash...])
        var host = Substring(authority)
        var port: UInt16 = 443
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { guard let parsed = UInt16(after.dropFirst()) else { return nil }; port = parsed }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            guard let parsed = UInt16(authority[authority.index(after: colon)...]) else { return nil }
            port = parsed
        }
        guard !host.isEmpty else { return nil }
        return (Origin(host: String(host), port: port), path)
    }
}
