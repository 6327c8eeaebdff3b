public import Foundation

/// Turns an APNs payload into the `UNNotificationRequest` iOS builds for a remote notification.
///
/// Read from `aps`: `alert` (a string, the body, or a dictionary with `title`, `subtitle`, `body`),
/// `category`, `thread-id`, `badge`, `sound` (a name, `"default"`, or a critical-alert dictionary
/// with `critical`, `name`, `volume`), `interruption-level` (`passive`, `active`, `time-sensitive`,
/// `critical`), `relevance-score` and `target-content-id`. The whole payload becomes `userInfo`,
/// which is where the delivery reads `mutable-content`. The trigger is a `UNPushNotificationTrigger`.
/// Localized alert keys (`title-loc-key`, …) are not resolved.
public enum SimulatedPayload {
    /// The request for `payload`.
    public static func request(from payload: [AnyHashable: Any], identifier: String = UUID().uuidString) -> UNNotificationRequest {
        let aps = PayloadValue.dictionary(payload["aps"]) ?? [:]
        var fields = ContentFields()
        if let body = PayloadValue.string(aps["alert"]) {
            fields.body = body
        } else if let alert = PayloadValue.dictionary(aps["alert"]) {
            fields.title = PayloadValue.string(alert["title"]) ?? ""
            fields.subtitle = PayloadValue.string(alert["subtitle"]) ?? ""
            fields.body = PayloadValue.string(alert["body"]) ?? ""
        }
        fields.categoryIdentifier = PayloadValue.string(aps["category"]) ?? ""
        fields.threadIdentifier = PayloadValue.string(aps["thread-id"]) ?? ""
        fields.badge = PayloadValue.integer(aps["badge"]).map { NSNumber(value: $0) }
        fields.sound = sound(aps["sound"])
        fields.interruptionLevel = interruptionLevel(PayloadValue.string(aps["interruption-level"]))
        fields.relevanceScore = PayloadValue.number(aps["relevance-score"]) ?? 0
        fields.targetContentIdentifier = PayloadValue.string(aps["target-content-id"])
        fields.userInfo = payload
        return UNNotificationRequest(requestIdentifier: identifier, content: UNNotificationContent(fields: fields),
                                     trigger: UNPushNotificationTrigger())
    }

    /// The request for a payload in JSON, as the server sends it to APNs.
    ///
    /// - Throws: `SimulationError` when `json` is not a JSON object.
    public static func request(fromJSON json: Data, identifier: String = UUID().uuidString) throws -> UNNotificationRequest {
        guard let payload = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw SimulationError.payloadNotAJSONObject
        }
        return request(from: payload, identifier: identifier)
    }

    private static func sound(_ value: Any?) -> UNNotificationSound? {
        if let name = PayloadValue.string(value) {
            return name == "default" ? .default : UNNotificationSound(named: UNNotificationSoundName(name))
        }
        guard let sound = PayloadValue.dictionary(value) else { return nil }
        let name = PayloadValue.string(sound["name"]).flatMap { $0 == "default" ? nil : UNNotificationSoundName($0) }
        let volume = PayloadValue.number(sound["volume"]).map(Float.init)
        guard PayloadValue.integer(sound["critical"]) == 1 else {
            return name.map { UNNotificationSound(named: $0) } ?? .default
        }
        return UNNotificationSound(name: name, isCritical: true, criticalVolume: volume)
    }

    private static func interruptionLevel(_ value: String?) -> UNNotificationInterruptionLevel {
        switch value {
        case "passive": .passive
        case "time-sensitive": .timeSensitive
        case "critical": .critical
        default: .active
        }
    }
}
