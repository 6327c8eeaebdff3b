import Foundation

/// One activity as the simulated system keeps it: its attributes and content as JSON (as iOS
/// keeps them, decoded by the app's types on demand), its token and its place in its life.
struct ActivityEntry {
    let id: String
    let attributesType: String
    let attributes: Data
    var content: Data
    var staleDate: Date?
    var relevanceScore: Double
    var state: ActivityState
    /// The update token (nil when the activity was started without `input-push-token`, or
    /// requested without `.token`).
    var token: Data?
    /// The `timestamp` of the last push applied.
    var lastTimestamp: Double?
    /// When an ended activity leaves the screen.
    var dismissAt: Date?
    /// Per-activity streams.
    let tokens = Broadcast<Data>()
    let states = Broadcast<ActivityState>()

    var isLive: Bool { state == .active || state == .stale }
}

/// What the simulated system knows of one of the app's `ActivityAttributes` types: whether JSON
/// decodes into it (nil) or why not.
protocol DeclaredAttributes: Sendable {
    func problemWithAttributes(_ data: Data) -> String?
    func problemWithContentState(_ data: Data) -> String?
}

/// The declaration of `Attributes` (no stored value: it only names the type).
struct Declared<Attributes: ActivityAttributes>: DeclaredAttributes {
    func problemWithAttributes(_ data: Data) -> String? { problem(decoding: Attributes.self, from: data) }
    func problemWithContentState(_ data: Data) -> String? { problem(decoding: Attributes.ContentState.self, from: data) }

    private func problem<T: Decodable>(decoding type: T.Type, from data: Data) -> String? {
        do {
            _ = try JSONDecoder().decode(T.self, from: data)
            return nil
        } catch {
            return "\(error)"
        }
    }
}

/// A new random token.
func randomToken() -> Data {
    Data((0..<32).map { _ in UInt8.random(in: 0...255) })
}

/// The name iOS knows an attributes type by (APNs's `attributes-type`).
func attributesTypeName<Attributes>(_ type: Attributes.Type) -> String {
    String(describing: type)
}
