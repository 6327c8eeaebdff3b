import Synchronization

private let requestCounter = Atomic<Int>(0)
// Should OpenSSL have no random bytes, the counter alone keeps request IDs unique in this process.
private let requestPrefix = ((try? Crypto.randomBytes(4)) ?? []).map { String($0, radix: 16) }.joined() + "-"

/// A complete HTTP request: head and body.
struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    var method: String
    /// The decoded path, without the query.
    var path: String
    /// Query parameters, decoded; the last value wins when a name repeats.
    var query: [String: String]
    /// Header values by lowercase name.
    var headers: [String: String]
    var body: [UInt8]
    /// The request ID: the client's `X-Request-Id` when it is short and plain, otherwise generated.
    var id: String
    /// The client's address as per-address limits count it (``IPAddress/limitKey``): the peer, or
    /// the client a trusted proxy names. Nil when the request did not come over a socket.
    var client: IPAddress?

    init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = [], id: String? = nil,
        client: IPAddress? = nil
    ) {
        let lowercased = headers.keys.allSatisfy({ $0.utf8.allSatisfy { !(0x41...0x5a).contains($0) } })
            ? headers
            : Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.init(method: method, path: path, query: query, lowercasedHeaders: lowercased, body: body, id: id, client: client)
    }

    /// A request whose header names are lowercase already (the server's).
    init(
        method: String, path: String, query: [String: String], lowercasedHeaders headers: [String: String], body: [UInt8], id: String? = nil,
        client: IPAddress? = nil
    ) {
        self.client = client
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.id = id ?? Self.requestID(from: headers["x-request-id"])
    }

    /// A header value by case-insensitive name.
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    static func requestID(from header: String?) -> String {
        if let header, (1...64).contains(header.utf8.count),
           header.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) }) {
            return header
        }
        // A random per-process prefix and a counter: unique, cheap, and no secret.
        let number = requestCounter.add(1, ordering: .relaxed).newValue
        return requestPrefix + String(number, radix: 16)
    }
}
