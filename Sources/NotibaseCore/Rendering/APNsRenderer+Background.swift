extension APNsRenderer {
    /// A silent push's body up to its custom data: `{"aps":{"content-available":1}` and the data,
    /// with no alert, sound, badge or `mutable-content` (iOS would then draw it, or not wake the
    /// app). The ids follow per device, then the closing brace. Also the data's sizes, for a
    /// too-large error.
    static func backgroundHead(of message: Message) -> (head: [UInt8], sizes: [RenderError.FieldSize]) {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("aps")
        writer.beginObject()
        writer.key("content-available")
        writer.integer(1)
        writer.endObject()
        var sizes: [RenderError.FieldSize] = []
        for key in message.data.keys.sorted() {
            let before = writer.bytes.count
            writer.key(key)
            writer.value(message.data[key]!)
            sizes.append(.init(field: "data." + key, bytes: writer.bytes.count - before))
        }
        return (writer.bytes, sizes)
    }

    /// A silent push's headers: push type `background` and priority 5, which Apple requires for it
    /// (it refuses 10), then the topic and collapse ID as for an alert.
    static func backgroundHeaders(topic: String?, collapseID: String?) -> [HTTPHeader] {
        var headers = [HTTPHeader("apns-push-type", "background"), HTTPHeader("apns-priority", "5")]
        if let topic { headers.append(HTTPHeader("apns-topic", topic)) }
        if let collapseID { headers.append(HTTPHeader("apns-collapse-id", collapseID)) }
        return headers
    }
}
