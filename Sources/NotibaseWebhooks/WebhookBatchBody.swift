import NotibaseCore
package import NotibaseDomain
import NotibaseStore
import NotibaseOutbound

/// The body of one request (docs/server.md, "Webhooks"): a Standard Webhooks payload whose
/// `data.events` is the batch, each event with its stable `id`, its `type`, its `timestamp` and
/// its `data`:
/// `{"data":{"events":[{"data":{…},"id":"…","timestamp":"…","type":"delivery.sent"}]},"timestamp":"…","type":"event.batch"}`.
///
/// Written into one buffer: a grown batch is thousands of events and a megabyte, and events of
/// one row share their type and time, whose text is written once for all of them.
package enum WebhookBatchBody {
    package static let type = "event.batch"

    package static func encode(_ events: [WebhookEventRecord], at: Int) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(envelopeBytes + events.reduce(0) { $0 + $1.dataByteCount + perEventBytes + 80 })
        body.append(contentsOf: #"{"data":{"events":["#.utf8)
        var texts = Texts()
        for (index, event) in events.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            // `data` is stored as the JSON object it is sent as.
            body.append(contentsOf: #"{"data":"#.utf8)
            event.appendData(to: &body)
            body.append(contentsOf: #","id":"#.utf8)
            JSONWriter.appendString(event.id, to: &body)
            body.append(contentsOf: #","timestamp":"#.utf8)
            body.append(contentsOf: texts.timestamp(event.at))
            body.append(contentsOf: #","type":"#.utf8)
            body.append(contentsOf: texts.type(event.type))
            body.append(UInt8(ascii: "}"))
        }
        body.append(contentsOf: #"]},"timestamp":"#.utf8)
        body.append(contentsOf: Texts.quotedTimestamp(at))
        body.append(contentsOf: #","type":"#.utf8)
        JSONWriter.appendString(type, to: &body)
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// The bytes `event` adds to a body, with the comma before it (a bound: the first has none).
    package static func bytes(of event: WebhookEventRecord) -> Int {
        var sizes = Sizes()
        return sizes.bytes(of: event)
    }

    /// ``bytes(of:)`` for events in a row: the text of a time and of a type is measured once
    /// while they repeat.
    package struct Sizes {
        private var texts = Texts()

        package mutating func bytes(of event: WebhookEventRecord) -> Int {
            perEventBytes + event.dataByteCount + JSONWriter.encodedLength(of: Substring(event.id))
                + texts.timestamp(event.at).count + texts.type(event.type).count
        }
    }

    /// An event's fixed text, with the comma before it.
    private static let perEventBytes = #"{"data":,"id":,"timestamp":,"type":},"#.utf8.count

    /// The quoted text of the last time and type written, kept while the next event has the same.
    private struct Texts {
        private var at = Int.min, atText: [UInt8] = []
        private var typeName = "", typeText: [UInt8] = []

        package mutating func timestamp(_ value: Int) -> [UInt8] {
            if value != at { (at, atText) = (value, Texts.quotedTimestamp(value)) }
            return atText
        }

        package mutating func type(_ value: String) -> [UInt8] {
            if value != typeName || typeText.isEmpty {
                typeName = value
                typeText = []
                JSONWriter.appendString(value, to: &typeText)
            }
            return typeText
        }

        package static func quotedTimestamp(_ milliseconds: Int) -> [UInt8] {
            var text: [UInt8] = [UInt8(ascii: "\"")]
            Timestamp.append(milliseconds: milliseconds, to: &text)
            text.append(UInt8(ascii: "\""))
            return text
        }
    }

    /// The most bytes a body holds besides its events (its time as long as one with milliseconds).
    package static let envelopeBytes = #"{"data":{"events":[]},"timestamp":,"type":}"#.utf8.count + JSON.text(1.timestamp).utf8.count + JSON.text(type).utf8.count
}
