/// The body of one request (docs/server.md, "Webhooks"): a Standard Webhooks payload whose
/// `data.events` is the batch, each event with its stable `id`, its `type`, its `timestamp` and
/// its `data`:
/// `{"data":{"events":[{"data":{…},"id":"…","timestamp":"…","type":"delivery.sent"}]},"timestamp":"…","type":"event.batch"}`.
enum WebhookBatchBody {
    static let type = "event.batch"

    static func encode(_ events: [WebhookEventRecord], at: Int) -> [UInt8] {
        var body = #"{"data":{"events":["#
        for (index, event) in events.enumerated() {
            if index > 0 { body += "," }
            // `data` is stored as the JSON object it is sent as.
            body += #"{"data":"# + event.data + #","id":"# + JSON.text(event.id) + #","timestamp":"# + JSON.text(event.at.timestamp)
                + #","type":"# + JSON.text(event.type) + "}"
        }
        body += #"]},"timestamp":"# + JSON.text(at.timestamp) + #","type":"# + JSON.text(type) + "}"
        return Array(body.utf8)
    }
}
