package import NotibaseCore

/// What one entry of a delivery's history says beyond its event and time: the worker's attempt and
/// the provider's answer, a receipt's report, or why the server gave up. Stored as a JSON object
/// with these keys (the funnel reads `render`, `actionId`, `providerReason`, `reason` and
/// `explanation` from it, as ``FunnelSteps`` says) and shown as the entry's fields in the delivery log.
package struct DeliveryEventDetail: Codable, Sendable, Equatable {
    package var attempt: Int?
    package var status: Int?
    package var providerID: String?
    package var providerReason: String?
    package var explanation: String?
    package var reason: String?
    package var retryAt: String?
    package var deviceDeactivated: Bool?
    /// A retry because the provider refused the app's credentials: the delivery waits for
    /// working ones (the funnel's `waitingForCredentials`).
    package var credentialsRejected: Bool?
    /// A receipt's ID, and what the device reported with it.
    package var receiptID: String?
    package var render: RenderReport?
    package var actionID: String?
    package var text: String?
    /// What pacing decided (the `scheduled` entry): when it is due, the zone and the wall-clock
    /// time there that decided it, whether that zone was the message's fallback, and which of
    /// `localTime`, `quietHours` and `rate` moved it.
    package var dueAt: String?
    package var timeZone: String?
    package var localTime: String?
    package var timeZoneFallback: Bool?
    package var decidedBy: [String]?

    package enum CodingKeys: String, CodingKey {
        case attempt, status, providerID = "providerId", providerReason, explanation, reason, retryAt, deviceDeactivated, credentialsRejected
        case receiptID = "receiptId", render, actionID = "actionId", text
        case dueAt, timeZone, localTime, timeZoneFallback, decidedBy
    }

    /// A detail that says only why.
    package static func because(_ reason: String) -> DeliveryEventDetail { DeliveryEventDetail(reason: reason) }

    package var stored: String { (try? StoredJSON.encode(self)) ?? "{}" }

    package init(attempt: Int? = nil, status: Int? = nil, providerID: String? = nil, providerReason: String? = nil, explanation: String? = nil, reason: String? = nil, retryAt: String? = nil, deviceDeactivated: Bool? = nil, credentialsRejected: Bool? = nil, receiptID: String? = nil, render: RenderReport? = nil, actionID: String? = nil, text: String? = nil, dueAt: String? = nil, timeZone: String? = nil, localTime: String? = nil, timeZoneFallback: Bool? = nil, decidedBy: [String]? = nil) {
        self.attempt = attempt
        self.status = status
        self.providerID = providerID
        self.providerReason = providerReason
        self.explanation = explanation
        self.reason = reason
        self.retryAt = retryAt
        self.deviceDeactivated = deviceDeactivated
        self.credentialsRejected = credentialsRejected
        self.receiptID = receiptID
        self.render = render
        self.actionID = actionID
        self.text = text
        self.dueAt = dueAt
        self.timeZone = timeZone
        self.localTime = localTime
        self.timeZoneFallback = timeZoneFallback
        self.decidedBy = decidedBy
    }
}
