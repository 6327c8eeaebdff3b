#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension LiveActivityMessage {
    /// The earliest date a Live Activity push may name: 2001-01-01T00:00:00Z. An earlier one is
    /// almost always a zero or a wrong unit (milliseconds read as seconds, say).
    public static let earliestDate = Date(timeIntervalSince1970: 978_307_200)
    /// How far ahead a date may be: a year. An activity lasts at most 12 hours (8 running, then
    /// up to 4 more on the Lock Screen); a date further than this is a mistake.
    public static let maximumDateDistance: TimeInterval = 366 * 86_400
    /// The longest attributes type name.
    public static let maximumAttributesTypeLength = 128

    /// Every problem with the event for the given platforms, errors and warnings, in field order.
    /// `activityID` is the activity's ID, checked too when given (the payload sizes are measured
    /// with it, or with a 64-character one when nil); `now` is what the dates are compared with.
    public func validate(activityID: String? = nil, for platforms: Set<Platform> = Set(Platform.allCases), now: Date = Date()) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        if let activityID, let problem = LiveActivityID.problem(with: activityID) {
            issues.append(.init(field: "activityId", code: "invalid_activity_id", message: problem))
        }
        validateEvent(activityID: activityID, into: &issues)
        validateDates(now: now, into: &issues)
        validateText(for: platforms, into: &issues)
        if !issues.contains(where: { $0.severity == .error }) {
            validateSizes(activityID: activityID ?? String(repeating: "a", count: LiveActivityID.maximumLength), for: platforms, into: &issues)
        }
        return issues
    }

    /// The event itself when it has no errors; otherwise throws them all. Warnings do not throw.
    public func validated(activityID: String? = nil, for platforms: Set<Platform> = Set(Platform.allCases), now: Date = Date()) throws(ValidationError) -> LiveActivityMessage {
        let errors = validate(activityID: activityID, for: platforms, now: now).filter { $0.severity == .error }
        if !errors.isEmpty { throw ValidationError(issues: errors) }
        return self
    }

    private func validateEvent(activityID: String?, into issues: inout [ValidationIssue]) {
        if !LiveActivityEvent.known.contains(event) {
            issues.append(.init(field: "event", code: "unknown_value", message: "use one of start, update, end, not \"\(event.rawValue)\""))
        }
        if JSONValue.object(contentState).depth > Message.maximumDataDepth + 1 {
            issues.append(.init(field: "contentState", code: "too_deep", message: "the content state may nest at most \(Message.maximumDataDepth) levels deep"))
        }
        if event == .start {
            if attributesType == nil {
                issues.append(.init(field: "attributesType", code: "required", message: "a start needs the name of the app's ActivityAttributes type, such as DeliveryAttributes"))
            }
            if attributes == nil {
                issues.append(.init(field: "attributes", code: "required", message: "a start needs the activity's attributes (an object, {} when the type has none)"))
            }
        } else {
            for (field, present) in [("attributesType", attributesType != nil), ("attributes", attributes != nil)] where present {
                issues.append(.init(field: field, code: "start_only", message: "\(field) is sent only to start an activity; leave it out of an \(event.rawValue)"))
            }
        }
        if let type = attributesType, !Self.isTypeName(type) {
            issues.append(.init(
                field: "attributesType", code: "invalid_type_name",
                message: "the attributes type is the Swift name of the app's ActivityAttributes type: a letter or _, then letters, digits or _, at most \(Self.maximumAttributesTypeLength)"))
        }
        if let attributes {
            if JSONValue.object(attributes).depth > Message.maximumDataDepth + 1 {
                issues.append(.init(field: "attributes", code: "too_deep", message: "the attributes may nest at most \(Message.maximumDataDepth) levels deep"))
            }
            if let given = attributes[LiveActivityID.attributesKey], activityID == nil || given != .string(activityID!) {
                issues.append(.init(
                    field: "attributes." + LiveActivityID.attributesKey, code: "reserved_key",
                    message: "Notibase sets \(LiveActivityID.attributesKey) to the activity's ID; leave it out"))
            }
        }
    }

    private func validateDates(now: Date, into issues: inout [ValidationIssue]) {
        if dismissalDate != nil && event != .end {
            issues.append(.init(field: "dismissalDate", code: "end_only", message: "a dismissal date is sent only with end; leave it out of a \(event.rawValue)"))
        }
        for (field, date) in [("staleDate", staleDate), ("dismissalDate", dismissalDate)] {
            guard let date else { continue }
            if !date.timeIntervalSince1970.isFinite || date < Self.earliestDate {
                issues.append(.init(
                    field: field, code: "out_of_range",
                    message: "\(field) is before 2001-01-01; send an RFC 3339 time such as 2026-12-01T09:30:00Z (a past one is allowed from 2001 on)"))
            } else if date.timeIntervalSince(now) > Self.maximumDateDistance {
                issues.append(.init(
                    field: field, code: "out_of_range",
                    message: "\(field) is more than a year from now; an activity lasts at most 12 hours (8 running, 4 more on the Lock Screen)"))
            }
        }
        if let relevanceScore, !relevanceScore.isFinite {
            issues.append(.init(field: "relevanceScore", code: "out_of_range", message: "the relevance score must be a finite number"))
        }
    }

    private func validateText(for platforms: Set<Platform>, into issues: inout [ValidationIssue]) {
        if let alert {
            if (alert.title ?? "").isEmpty && (alert.body ?? "").isEmpty {
                issues.append(.init(field: "alert", code: "missing_text", message: "give the alert a title or a body, or leave the alert out"))
            }
            if let sound = alert.sound, sound.isEmpty {
                issues.append(.init(field: "alert.sound", code: "empty", message: "use \"default\" or the name of a sound file in the app, or leave sound out"))
            }
        }
        if let progress = display?.progress, !(0...1).contains(progress) {
            issues.append(.init(field: "display.progress", code: "out_of_range", message: "the progress must be from 0 to 1, not \(progress)"))
        }
        if platforms.contains(.android) && (androidTitle ?? "").isEmpty && (androidBody ?? "").isEmpty {
            issues.append(.init(
                field: "display", code: "missing_text",
                message: "Android draws a Live Update from display.title and display.body (or the alert's): without either it shows only the app's name",
                platform: .android, severity: .warning))
        }
    }

    private func validateSizes(activityID: String, for platforms: Set<Platform>, into issues: inout [ValidationIssue]) {
        // The per-send parts at their largest: a ten-digit timestamp (until 2286), UUID ids and the
        // server's 43-character signatures.
        let timestamp = 9_999_999_999
        var sizes: [(Platform, Int, Int)] = []
        if platforms.contains(.ios) {
            let size = LiveActivityAPNsRenderer.payload(of: self, activityID: activityID, timestamp: timestamp).count
            sizes.append((.ios, size, LiveActivityAPNsRenderer.payloadLimit))
        }
        if platforms.contains(.android) {
            let sample = DeliveryContext(deviceToken: "", messageID: Self.uuidSample, deliveryID: Self.uuidSample, receiptSignature: String(repeating: "A", count: 43))
            let data = LiveActivityFCMRenderer.data(of: self, activityID: activityID, timestamp: timestamp, context: sample)
            sizes.append((.android, FCMRenderer.dataSize(of: data), LiveActivityFCMRenderer.payloadLimit))
        }
        let largest = fieldSizes(activityID: activityID).filter { $0.bytes > 0 }.sorted { $0.bytes > $1.bytes }.prefix(3)
        for (platform, size, limit) in sizes where size > limit {
            let fields = largest.map { "\($0.field) (\($0.bytes) bytes)" }.joined(separator: ", ")
            issues.append(.init(
                field: largest.first?.field ?? "contentState", code: "payload_too_large",
                message: "the \(platform) payload would be \(size) bytes, \(size - limit) over the \(limit)-byte limit for Live Activity pushes; make the largest fields smaller: \(fields)",
                platform: platform))
        }
    }

    private static let uuidSample = "00000000-0000-0000-0000-000000000000"

    /// A Swift type name: a letter or `_`, then letters, digits or `_` (ASCII).
    public static func isTypeName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= maximumAttributesTypeLength else { return false }
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte) || byte == UInt8(ascii: "_") }
        return isLetter(first) && name.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) }
    }
}
