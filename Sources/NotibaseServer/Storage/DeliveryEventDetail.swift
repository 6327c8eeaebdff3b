import NotibaseCore

/// What one entry of a delivery's history says beyond its event and time: the worker's attempt and
/// the provider's answer, a receipt's report, or why the server gave up. Stored as a JSON object
/// with these keys (the funnel reads `render`, `actionId`, `providerReason`, `reason` and
/// `explanation` from it, as ``FunnelSteps`` says) and shown as the entry's fields in the delivery log.
struct DeliveryEventDetail: Codable, Sendable, Equatable {
    var attempt: Int?
    var status: Int?
    var providerID: String?
    var providerReason: String?
    var explanation: String?
    var reason: String?
    var retryAt: String?
    var deviceDeactivated: Bool?
    /// A retry because the provider refused the app's credentials: the delivery waits for
    /// working ones (the funnel's `waitingForCredentials`).
    var credentialsRejected: Bool?
    /// A receipt's ID, and what the device reported with it.
    var receiptID: String?
    var render: RenderReport?
    var actionID: String?
    var text: String?
    /// What pacing decided (the `scheduled` entry): when it is due, the zone and the wall-clock
    /// time there that decided it, whether that zone was the message's fallback, and which of
    /// `localTime`, `quietHours` and `rate` moved it.
    var dueAt: String?
    var timeZone: String?
    var localTime: String?
    var timeZoneFallback: Bool?
    var decidedBy: [String]?

    enum CodingKeys: String, CodingKey {
        case attempt, status, providerID = "providerId", providerReason, explanation, reason, retryAt, deviceDeactivated, credentialsRejected
        case receiptID = "receiptId", render, actionID = "actionId", text
        case dueAt, timeZone, localTime, timeZoneFallback, decidedBy
    }

    /// A detail that says only why.
    static func because(_ reason: String) -> DeliveryEventDetail { DeliveryEventDetail(reason: reason) }

    var stored: String { (try? StoredJSON.encode(self)) ?? "{}" }
}
