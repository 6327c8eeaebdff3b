#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What both renderers and validation derive from a Live Activity message the same way.
extension LiveActivityMessage {
    /// The attributes as sent: the message's, with the activity ID under `notibaseActivityID`.
    func sentAttributes(activityID: String) -> [String: JSONValue] {
        var sent = attributes ?? [:]
        sent[LiveActivityID.attributesKey] = .string(activityID)
        return sent
    }

    /// The text Android draws: the display's, falling back to the alert's.
    var androidTitle: String? { display?.title ?? alert?.title }
    /// The text Android draws under the title: the display's, falling back to the alert's.
    var androidBody: String? { display?.body ?? alert?.body }

    /// A time as APNs and the Android SDK take it: whole seconds since 1970.
    static func seconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down))
    }

    /// The compact JSON text of a value, keys sorted: how objects travel in FCM data.
    static func jsonText(_ value: JSONValue) -> String {
        var writer = JSONWriter(capacity: 256)
        writer.value(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The bytes each field takes in the payloads, for naming the largest when it is too large.
    func fieldSizes(activityID: String) -> [RenderError.FieldSize] {
        var sizes = [RenderError.FieldSize(field: "contentState", bytes: Self.jsonText(.object(contentState)).utf8.count)]
        if event == .start {
            sizes.append(.init(field: "attributes", bytes: Self.jsonText(.object(sentAttributes(activityID: activityID))).utf8.count))
            sizes.append(.init(field: "attributesType", bytes: attributesType?.utf8.count ?? 0))
        }
        for (field, text) in [("alert.title", alert?.title), ("alert.body", alert?.body), ("alert.sound", alert?.sound),
                              ("display.title", display?.title), ("display.body", display?.body)] {
            sizes.append(.init(field: field, bytes: text.map { JSONWriter.encodedLength(of: Substring($0)) - 2 } ?? 0))
        }
        return sizes
    }
}
