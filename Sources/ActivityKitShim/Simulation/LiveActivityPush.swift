import Foundation

/// The `aps` of a Live Activity push, as iOS reads it.
struct LiveActivityPush {
    var event: String
    var timestamp: Double
    var contentState: Data?
    var staleDate: Date?
    var dismissalDate: Date?
    var relevanceScore: Double?
    var attributesType: String?
    var attributes: Data?
    var inputPushToken = false

    /// The push, or why iOS would drop it as malformed.
    static func parse(_ payload: Data) -> (push: LiveActivityPush?, refusal: LiveActivityPushOutcome.Refusal?) {
        guard let root = try? JSONSerialization.jsonObject(with: payload) as? [String: Any], let aps = root["aps"] as? [String: Any] else {
            return (nil, .malformed("no aps object"))
        }
        guard let event = aps["event"] as? String, ["start", "update", "end"].contains(event) else {
            return (nil, .malformed("event is not start, update or end"))
        }
        guard let timestamp = number(aps["timestamp"]) else { return (nil, .malformed("no numeric timestamp")) }
        var push = LiveActivityPush(event: event, timestamp: timestamp)
        if let state = aps["content-state"] {
            guard state is [String: Any], let data = try? JSONSerialization.data(withJSONObject: state) else {
                return (nil, .malformed("content-state is not an object"))
            }
            push.contentState = data
        }
        push.staleDate = number(aps["stale-date"]).map(Date.init(timeIntervalSince1970:))
        push.dismissalDate = number(aps["dismissal-date"]).map(Date.init(timeIntervalSince1970:))
        push.relevanceScore = number(aps["relevance-score"])
        if event == "start" {
            push.attributesType = aps["attributes-type"] as? String
            if let attributes = aps["attributes"] as? [String: Any] { push.attributes = try? JSONSerialization.data(withJSONObject: attributes) }
            push.inputPushToken = number(aps["input-push-token"]) == 1
        }
        return (push, nil)
    }

    private static func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }
}
