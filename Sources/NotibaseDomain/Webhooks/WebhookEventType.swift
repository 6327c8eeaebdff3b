/// The types of the events an endpoint receives, each with what it means: the one list that
/// `GET /v1/webhooks/event-types` answers, that `POST` and `PATCH /v1/webhooks` check `types`
/// against, and that the console offers (docs/server.md, "Webhooks").
package enum WebhookEventType {
    package static let test = "webhook.test"
    /// A send's event: written by the workers' record, in rows of lines (``WebhookSentRows``).
    package static let deliverySent = "delivery.sent"

    /// A type and its one-line description, as `GET /v1/webhooks/event-types` lists it.
    package struct Described: Encodable, Sendable {
        package var type: String
        package var description: String
    }

    /// Every type with its description, in the order the docs list them.
    package static let described = [
        Described(type: "message.created", description: "A message was accepted for sending; audienceSize is its audience when known."),
        Described(type: "message.completed", description: "Every delivery of a message reached a final state."),
        Described(type: "message.cancelled", description: "A message was cancelled: deliveries not sent yet never will be."),
        Described(type: "message.failed", description: "A message could not be sent at all; reason says why."),
        Described(type: deliverySent, description: "APNs or FCM accepted a delivery; details.providerId is its ID there."),
        Described(type: "delivery.failed", description: "A delivery failed for good; details.providerReason is the provider's reason."),
        Described(type: "delivery.retrying", description: "A delivery failed for now and will be tried again; details say why and when (retryAt)."),
        Described(type: "delivery.rendered", description: "The device drew the notification; details.render says what it drew (buttons, image)."),
        Described(type: "delivery.received", description: "The app received a silent background push (nothing is drawn for one)."),
        Described(type: "delivery.opened", description: "The person opened the notification."),
        Described(type: "delivery.action", description: "The person tapped a button; details.actionId names it, details.text is a reply's text."),
        Described(type: "delivery.dismissed", description: "The person dismissed the notification."),
        Described(type: "device.registered", description: "A device registered: new, or active again."),
        Described(type: "device.deactivated", description: "A device stopped receiving: its token is dead or was replaced; reason says which."),
        Described(type: test, description: "A test event, sent by POST /v1/webhooks/{id}/test."),
    ]

    /// Every type, in the order the docs list them; what an endpoint created without `types` receives.
    package static let all = described.map(\.type)

    /// The type of a delivery history entry's event (`sent`, `rendered`, …), or nil for an entry
    /// that is no event of its own for a receiver (`scheduled`, `cancelled`).
    package static func ofDeliveryEvent(_ event: String) -> String? {
        switch event {
        case "sent", "failed", "retrying", "rendered", "received", "opened", "action", "dismissed": "delivery." + event
        default: nil
        }
    }
}
