/// The types of the events an endpoint receives (docs/server.md, "Webhooks").
enum WebhookEventType {
    static let test = "webhook.test"

    /// Every type, in the order the docs list them; what an endpoint created without `types` receives.
    static let all = [
        "message.created", "message.completed", "message.cancelled", "message.failed",
        "delivery.sent", "delivery.failed", "delivery.retrying", "delivery.rendered", "delivery.opened", "delivery.action",
        "delivery.dismissed", "device.registered", "device.deactivated", test,
    ]

    /// The type of a delivery history entry's event (`sent`, `rendered`, …), or nil for an entry
    /// that is no event of its own for a receiver (`scheduled`, `cancelled`).
    static func ofDeliveryEvent(_ event: String) -> String? {
        switch event {
        case "sent", "failed", "retrying", "rendered", "opened", "action", "dismissed": "delivery." + event
        default: nil
        }
    }
}
