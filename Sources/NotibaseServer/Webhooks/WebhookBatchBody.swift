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

    /// The bytes `event` adds to a body, with the comma before it (a bound: the first has none).
    static func bytes(of event: WebhookEventRecord) -> Int {
        #"{"data":,"id":,"timestamp":,"type":},"#.utf8.count + event.data.utf8.count + JSON.text(event.id).utf8.count
            + JSON.text(event.at.timestamp).utf8.count + JSON.text(event.type).utf8.count
    }

    /// The most bytes a body holds besides its events (its time as long as one with milliseconds).
    static let envelopeBytes = #"{"data":{"events":[]},"timestamp":,"type":}"#.utf8.count + JSON.text(1.timestamp).utf8.count + JSON.text(type).utf8.count
}
