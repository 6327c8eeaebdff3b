import ActivityKitShim
import Foundation

/// A delivery app's attributes, as an app declares them.
struct DeliveryAttributes: ActivityAttributes, Equatable {
    struct ContentState: Codable, Hashable {
        var status: String
        var minutesLeft: Int
    }

    var orderNumber: String
}

/// An APNs `liveactivity` body.
func livePush(
    _ event: String, timestamp: Double, contentState: [String: Any]? = ["status": "cooking", "minutesLeft": 20],
    extra: [String: Any] = [:]
) -> Data {
    var aps: [String: Any] = ["event": event, "timestamp": timestamp]
    if let contentState { aps["content-state"] = contentState }
    aps.merge(extra) { _, new in new }
    return try! JSONSerialization.data(withJSONObject: ["aps": aps])
}

/// A push-to-start body for `DeliveryAttributes`.
func startPush(timestamp: Double = 1000, orderNumber: String = "A-17", inputPushToken: Bool = true) -> Data {
    var extra: [String: Any] = ["attributes-type": "DeliveryAttributes", "attributes": ["orderNumber": orderNumber]]
    if inputPushToken { extra["input-push-token"] = 1 }
    return livePush("start", timestamp: timestamp, extra: extra)
}

/// The first value of an async sequence.
func first<S: AsyncSequence>(_ sequence: S) async throws -> S.Element? {
    var iterator = sequence.makeAsyncIterator()
    return try await iterator.next()
}

extension SimulatedActivityDevice {
    /// The push-to-start token the app would get from `pushToStartTokenUpdates`.
    func askForPushToStartToken() async -> Data? {
        await SimulatedActivityDevice.$bound.withValue(self) {
            try? await first(Activity<DeliveryAttributes>.pushToStartTokenUpdates)
        }
    }

    /// Starts an activity by push and returns its system ID and update token.
    func startByPush(timestamp: Double = 1000) async throws -> (id: String, token: Data) {
        guard let startToken = await askForPushToStartToken() else { throw Failure("no push-to-start token") }
        guard case .started(let id) = deliver(startPush(timestamp: timestamp), to: startToken) else { throw Failure("not started: \(outcomes)") }
        guard let token = updateToken(ofActivity: id) else { throw Failure("no update token") }
        return (id, token)
    }

    func content(of id: String) -> DeliveryAttributes.ContentState? {
        contentState(ofActivity: id).flatMap { try? JSONDecoder().decode(DeliveryAttributes.ContentState.self, from: $0) }
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
