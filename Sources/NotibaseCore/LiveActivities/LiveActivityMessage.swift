#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One event of a Live Activity, as a backend sends it: start, update or end, with the new
/// content state, defined once for iOS (ActivityKit, through APNs) and Android (a Live Update,
/// through an FCM data message).
///
/// ``LiveActivityAPNsRenderer`` and ``LiveActivityFCMRenderer`` render it with the activity's
/// ID and the send's timestamp; `docs/message-content.md` ("Live Activities") maps every field to
/// both payloads. Decoding rejects unknown fields; ``validate(activityID:for:now:)`` reports
/// every problem at once, the rendered payloads' sizes included.
public struct LiveActivityMessage: Sendable, Hashable {
    /// `start`, `update` or `end` (`aps.event`).
    public var event: LiveActivityEvent
    /// The activity's new dynamic content (`aps.content-state`): a JSON object that the app's
    /// `ContentState` decodes. A key it does not know, or a value of the wrong type, makes iOS drop
    /// the update silently. Required for every event.
    public var contentState: [String: JSONValue]
    /// Start only, required there: the name of the app's `ActivityAttributes` type
    /// (`aps.attributes-type`), such as `DeliveryAttributes`.
    public var attributesType: String?
    /// Start only, required there: the activity's static attributes (`aps.attributes`). Notibase
    /// adds the activity ID under `notibaseActivityID`.
    public var attributes: [String: JSONValue]?
    /// When the system shows the activity as out of date unless another update came
    /// (`aps.stale-date`).
    public var staleDate: Date?
    /// End only: when the ended activity leaves the Lock Screen (`aps.dismissal-date`); a time in
    /// the past removes it at once. Absent, iOS keeps it up to four hours and Android leaves it
    /// dismissable.
    public var dismissalDate: Date?
    /// How iOS orders the app's simultaneous activities: higher comes first
    /// (`aps.relevance-score`). Any finite number.
    public var relevanceScore: Double?
    /// An alert that lights the screen (`aps.alert`); Android's text when there is no ``display``.
    public var alert: LiveActivityAlert?
    /// `high` (`apns-priority: 10`, the default; iOS limits how many it takes per hour) or
    /// `normal` (5: no limit, may be delayed). FCM: `HIGH` or `NORMAL`.
    public var priority: Priority?
    /// What Android draws: title, text and progress.
    public var display: LiveActivityDisplay?

    /// An event; validation asks for what each event needs.
    public init(
        event: LiveActivityEvent,
        contentState: [String: JSONValue],
        attributesType: String? = nil,
        attributes: [String: JSONValue]? = nil,
        staleDate: Date? = nil,
        dismissalDate: Date? = nil,
        relevanceScore: Double? = nil,
        alert: LiveActivityAlert? = nil,
        priority: Priority? = nil,
        display: LiveActivityDisplay? = nil
    ) {
        self.event = event
        self.contentState = contentState
        self.attributesType = attributesType
        self.attributes = attributes
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.relevanceScore = relevanceScore
        self.alert = alert
        self.priority = priority
        self.display = display
    }
}
