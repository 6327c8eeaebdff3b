import NotibaseCore

/// `delivery.sent` events as both stores keep them: a line per send holding only its values,
/// made into the event's `data` when the stream is read (docs/decisions/0037, "Sends in lines").
/// The `data` of a thousand sends written as JSON is some 300 KB, each event repeating its keys,
/// its app and its message; every byte is written to the log and copied into the database again.
/// These lines are under half of it. ``WebhookSentRows`` writes a batch's rows, in Swift only.
///
/// A row's text is ``marker`` and then one line per send (lines apart by a line feed):
///
///     messageId,platform,deliveryId,providerId,deviceId,externalUserId
///
/// each a JSON string or `null`, written by the same escaping as the event's text (so a value is
/// copied into it as it is); `messageId` is left empty when the line before has the same. The app
/// is the row's. Every other event is a row of its own, its `data` one JSON object.
package enum WebhookSendLines {
    package static let marker = UInt8(ascii: "~")

    /// A send's values after its message's ID: `,platform,deliveryId,providerId,deviceId,externalUserId`.
    package static func values(deliveryID: String, providerID: String?, deviceID: String?, externalUserID: String?, platform: String?) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        appendValues(deliveryID: deliveryID, providerID: providerID, deviceID: deviceID, externalUserID: externalUserID, platform: platform, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A send's values from what its claim read (``ClaimedDelivery/sendFacts``): its provider's ID
    /// the one the send gave, else the one an earlier attempt stored.
    package static func appendValues(of facts: SendFacts, providerID: String?, to bytes: inout [UInt8]) {
        appendValues(
            deliveryID: facts.deliveryID, providerID: providerID ?? facts.storedProviderID, deviceID: facts.deviceID, externalUserID: facts.externalUserID,
            platform: facts.platform, to: &bytes)
    }

    /// ``values(deliveryID:providerID:deviceID:externalUserID:platform:)`` written at the end of `bytes`.
    package static func appendValues(deliveryID: String, providerID: String?, deviceID: String?, externalUserID: String?, platform: String?, to bytes: inout [UInt8]) {
        for value in [platform, deliveryID, providerID, deviceID, externalUserID] {
            bytes.append(UInt8(ascii: ","))
            if let value { JSONWriter.appendString(value, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
        }
    }

    /// A send as a row holds it: its message's ID as quoted JSON text, and its values.
    package struct Line: Sendable, Equatable {
        package var message: String
        package var values: String

        package init(messageID: String, values: String) {
            var quoted: [UInt8] = []
            JSONWriter.appendString(messageID, to: &quoted)
            self.init(quotedMessage: String(decoding: quoted, as: UTF8.self), values: values)
        }

        package init(quotedMessage: String, values: String) {
            message = quotedMessage
            self.values = values
        }
    }

    /// The text of a row of `lines`, in order.
    package static func row(_ lines: [Line]) -> String {
        var bytes: [UInt8] = [marker]
        bytes.reserveCapacity(lines.count * 160)
        var previous: String?
        for line in lines {
            if bytes.count > 1 { bytes.append(UInt8(ascii: "\n")) }
            if line.message != previous { bytes.append(contentsOf: line.message.utf8) }
            previous = line.message
            bytes.append(contentsOf: line.values.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The lines of a row `data`, each with its message's ID (the line before's where it left it
    /// out), as ``row(_:)`` takes them back; nil if `data` is not a row of lines.
    package static func lines(_ data: String) -> [Line]? {
        guard isLines(data) else { return nil }
        let bytes = Array(data.utf8)
        var lines: [Line] = []
        var message = ""
        var position = 1
        while position <= bytes.count {
            let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var scanner = Scanner(bytes: bytes, position: position, end: end)
            if case .value(let text) = scanner.next() { message = String(decoding: bytes[text], as: UTF8.self) }
            // The values start at the comma after the message's ID, which the scanner took.
            lines.append(Line(quotedMessage: message, values: String(decoding: bytes[(scanner.position - 1)..<end], as: UTF8.self)))
            position = end + 1
        }
        return lines
    }

    /// A row written a send at a time straight into its bytes, as ``row(_:)`` writes it.
    package struct Row: Sendable {
        package private(set) var bytes: [UInt8] = [marker]
        private var previous: String?

        package init() {}

        /// A row room for about `capacity` lines made, so that its bytes are not copied as it grows.
        package init(capacity: Int) {
            bytes.reserveCapacity(1 + capacity * Self.lineBytes)
        }

        /// About the bytes of a line: a delivery's and a device's ID (36 each), a provider's ID,
        /// a user ID, a platform, the separators.
        package static let lineBytes = 140

        /// Writes a line: the message's ID unless the line before had the same, then the values.
        package mutating func append(messageID: String, deliveryID: String, providerID: String?, deviceID: String?, externalUserID: String?, platform: String?) {
            startLine(messageID: messageID)
            appendValues(deliveryID: deliveryID, providerID: providerID, deviceID: deviceID, externalUserID: externalUserID, platform: platform, to: &bytes)
        }

        /// Writes a send's line from what its claim read (``appendValues(of:providerID:to:)``).
        package mutating func append(_ facts: SendFacts, providerID: String?) {
            startLine(messageID: facts.messageID)
            appendValues(of: facts, providerID: providerID, to: &bytes)
        }

        private mutating func startLine(messageID: String) {
            if bytes.count > 1 { bytes.append(UInt8(ascii: "\n")) }
            if messageID != previous { JSONWriter.appendString(messageID, to: &bytes) }
            previous = messageID
        }

        package var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    package static func isLines(_ data: String) -> Bool { data.utf8.first == marker }

    /// Lines `range` (by their place) of a row of lines of an app, their fields found and not yet
    /// made into text: each event's `data`, as
    /// ``WebhookFeed/sentData(appID:deliveryID:providerID:deviceID:externalUserID:messageID:platform:)``
    /// writes it, is written from them where it is wanted (``WebhookEventRecord/appendData(to:)``),
    /// measured without being made (``dataByteCount(_:)``), and made into text only when asked for.
    package final class Parsed: Sendable {
        private let bytes: [UInt8]
        private let app: [UInt8]
        private let lines: [Line]

        private struct Line {
            package var message: Field
            package var values: Values
        }

        package init(_ data: String, appID: String, _ range: Range<Int>) {
            var app: [UInt8] = []
            JSONWriter.appendString(appID, to: &app)
            let bytes = Array(data.utf8)
            var lines: [Line] = []
            lines.reserveCapacity(range.count)
            var message = Field.null
            var position = 1
            var index = 0
            while index < range.upperBound, position <= bytes.count {
                let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                var scanner = Scanner(bytes: bytes, position: position, end: end)
                if case .value(let text) = scanner.next() { message = .value(text) }
                if index >= range.lowerBound {
                    // Read in the line's order: platform, delivery, provider, device, external user.
                    let values = Values(platform: scanner.next(), delivery: scanner.next(), provider: scanner.next(), device: scanner.next(), user: scanner.next())
                    lines.append(Line(message: message, values: values))
                }
                position = end + 1
                index += 1
            }
            (self.bytes, self.app, self.lines) = (bytes, app, lines)
        }

        package var count: Int { lines.count }

        /// Line `index`'s event `data` as text.
        package func data(_ index: Int) -> String {
            String(unsafeUninitializedCapacity: dataByteCount(index)) { text in
                var count = 0
                write(index) { part in
                    _ = UnsafeMutableBufferPointer(rebasing: text[count..<(count + part.count)]).initialize(fromContentsOf: part)
                    count += part.count
                }
                return count
            }
        }

        /// Writes line `index`'s event `data` at the end of `text`.
        package func appendData(_ index: Int, to text: inout [UInt8]) {
            write(index) { text.append(contentsOf: $0) }
        }

        /// The bytes of line `index`'s event `data`: the parts ``write(_:_:)`` gives, counted, so
        /// the measure is the text's by construction (``data(_:)`` writes into exactly this many).
        package func dataByteCount(_ index: Int) -> Int {
            var count = 0
            write(index) { count += $0.count }
            return count
        }

        /// The event's text, part by part: keys sorted, what is null left out, `details` always.
        private func write(_ index: Int, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
            let line = lines[index]
            bytes.withUnsafeBufferPointer { bytes in
                func text(_ part: [UInt8]) { part.withUnsafeBufferPointer { emit($0) } }
                func member(_ key: [UInt8], _ field: Field) {
                    guard case .value(let range) = field else { return }
                    text(key)
                    emit(UnsafeBufferPointer(rebasing: bytes[range]))
                }
                text(Keys.app)
                text(app)
                member(Keys.delivery, line.values.delivery)
                text(Keys.details)
                member(Keys.provider, line.values.provider)
                text(Keys.close)
                member(Keys.device, line.values.device)
                member(Keys.user, line.values.user)
                member(Keys.message, line.message)
                member(Keys.platform, line.values.platform)
                text(Keys.close)
            }
        }
    }

    fileprivate enum Field {
        case empty
        case null
        case value(Range<Int>)
    }

    /// Reads a line's fields, a comma after each.
    fileprivate struct Scanner {
        package let bytes: [UInt8]
        package var position: Int
        package let end: Int

        package mutating func next() -> Field {
            guard position < end else { return .empty }
            let field: Field
            if bytes[position] == UInt8(ascii: "\"") {
                var cursor = position + 1
                while cursor < end, bytes[cursor] != UInt8(ascii: "\"") {
                    cursor += bytes[cursor] == UInt8(ascii: "\\") ? 2 : 1
                }
                let close = min(cursor, end - 1)
                field = .value(position..<(close + 1))
                position = close + 1
            } else if bytes[position] == UInt8(ascii: "n") {
                field = .null
                position += 4
            } else {
                field = .empty
            }
            if position < end, bytes[position] == UInt8(ascii: ",") { position += 1 }
            return field
        }
    }

    /// A line's values (not an array: one is read for every event of a large send).
    fileprivate struct Values {
        package var platform, delivery, provider, device, user: Field
    }

    /// Each member's text before its value (the separator, the quoted key, the colon).
    private enum Keys {
        package static let app = Array(#"{"appId":"#.utf8)
        package static let delivery = Array(#","deliveryId":"#.utf8)
        package static let details = Array(#","details":{"#.utf8)
        package static let provider = Array(#""providerId":"#.utf8)
        package static let device = Array(#","deviceId":"#.utf8)
        package static let user = Array(#","externalUserId":"#.utf8)
        package static let message = Array(#","messageId":"#.utf8)
        package static let platform = Array(#","platform":"#.utf8)
        package static let close = [UInt8(ascii: "}")]
    }
}
