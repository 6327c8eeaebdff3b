import FoundationEssentials

/// The JSON body of a refused push: `{"reason": "Unregistered", "timestamp": 1700000000000}`.
struct APNsErrorBody: Decodable {
    var reason: String?
    /// Milliseconds since 1970 at which the token stopped being valid (410 only).
    var timestamp: Double?

    /// The body, or an empty one when it is not the documented JSON.
    static func parse(_ bytes: [UInt8]) -> APNsErrorBody {
        guard !bytes.isEmpty, let body = try? JSONDecoder().decode(APNsErrorBody.self, from: Data(bytes)) else {
            return APNsErrorBody()
        }
        return body
    }

    var invalidSince: Date? {
        timestamp.map { Date(timeIntervalSince1970: $0 / 1000) }
    }
}
