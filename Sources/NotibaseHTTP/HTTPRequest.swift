import Synchronization
package import NotibaseDomain

private let requestCounter = Atomic<Int>(0)
// Should OpenSSL have no random bytes, the counter alone keeps request IDs unique in this process.
private let requestPrefix = ((try? Crypto.randomBytes(4)) ?? []).map { String($0, radix: 16) }.joined() + "-"

/// A complete HTTP request: head and body.
package struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    package var method: String
    /// The decoded path, without the query.
    package var path: String
    /// Query parameters, decoded; the last value wins when a name repeats.
    package var query: [String: String]
    /// Header values by lowercase name.
    package var headers: [String: String]
    package var body: [UInt8]
    /// The request ID: always the server's own, so no client can make its request's log lines
    /// look like another's.
    package var id: String
    /// The client's `X-Request-Id`, sanitized for the log (``clientRequestID(from:)``), logged
    /// beside ``id``.
    package var clientRequestID: String?
    /// The client's address as per-address limits count it (``IPAddress/limitKey``): the peer, or
    /// the client a trusted proxy names. Nil when the request did not come over a socket.
    package var client: IPAddress?

    package init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = [], id: String? = nil,
        client: IPAddress? = nil
    ) {
        let lowercased = headers.keys.allSatisfy({ $0.utf8.allSatisfy { !(0x41...0x5a).contains($0) } })
            ? headers
            : Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.init(method: method, path: path, query: query, lowercasedHeaders: lowercased, body: body, id: id, client: client)
    }

    /// A request whose header names are lowercase already (the server's).
    package init(
        method: String, path: String, query: [String: String], lowercasedHeaders headers: [String: String], body: [UInt8], id: String? = nil,
        client: IPAddress? = nil
    ) {
        self.client = client
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.id = id ?? Self.newID()
        clientRequestID = headers["x-request-id"].flatMap(Self.clientRequestID(from:))
    }

    /// A header value by case-insensitive name.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// A new request ID: a random per-process prefix and a counter (unique, cheap, and no secret).
    package static func newID() -> String {
        let number = requestCounter.add(1, ordering: .relaxed).newValue
        return requestPrefix + String(number, radix: 16)
    }

    /// A client's request ID as the log shows it: its first 64 bytes, each byte other than a
    /// letter, digit, `-`, `_` or `.` replaced by `_`; nil when empty.
    package static func clientRequestID(from header: String) -> String? {
        let plain = header.utf8.prefix(64).map { byte -> UInt8 in
            let allowed = byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || (0x30...0x39).contains(byte)
                || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
            return allowed ? byte : UInt8(ascii: "_")
        }
        return plain.isEmpty ? nil : String(decoding: plain, as: UTF8.self)
    }
}
