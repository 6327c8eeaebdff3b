package import struct Foundation.Date

/// What happened to one push, in the provider's words and in ours, and what to do next.
///
/// Each provider maps its documented answers to these in one table (see `APNsReason` and
/// `FCMErrorCode`); the server's retry policy turns the disposition into the delivery's next state.
package struct SendOutcome: Sendable, Equatable {
    /// What the server should do with the delivery.
    package var disposition: Disposition
    /// The provider's identifier for an accepted push (`apns-id`, or FCM's message `name`).
    package var providerID: String?
    /// The HTTP status, when the provider answered.
    package var status: Int?
    /// The provider's own reason (`BadDeviceToken`, `UNREGISTERED`, …), unchanged.
    package var providerReason: String?
    /// Our explanation: what it means and what to do about it.
    package var explanation: String?
    /// How long to wait before trying again, when the provider said (`Retry-After`) or policy sets
    /// a floor.
    package var retryAfter: Duration?
    /// When the provider says the token stopped being valid (APNs 410 `timestamp`).
    package var tokenInvalidSince: Date?

    /// The next step for the delivery.
    package enum Disposition: String, Sendable, Hashable, Codable, CaseIterable {
        /// The provider accepted the push.
        case sent
        /// A transient failure (rate limit, server error, connection lost): try again later.
        case retry
        /// The device token is dead or wrong: deactivate the device, do not retry.
        case deactivateDevice
        /// This push can never succeed as it is (payload too large, bad collapse ID…): give up.
        case failed
        /// The app's credentials were refused: fail loudly so someone fixes them. Deliveries wait.
        case credentialsRejected
    }

    package init(
        disposition: Disposition,
        providerID: String? = nil,
        status: Int? = nil,
        providerReason: String? = nil,
        explanation: String? = nil,
        retryAfter: Duration? = nil,
        tokenInvalidSince: Date? = nil
    ) {
        self.disposition = disposition
        self.providerID = providerID
        self.status = status
        self.providerReason = providerReason
        self.explanation = explanation
        self.retryAfter = retryAfter
        self.tokenInvalidSince = tokenInvalidSince
    }

    /// An accepted push.
    package static func sent(providerID: String?) -> SendOutcome {
        SendOutcome(disposition: .sent, providerID: providerID, status: 200)
    }
}
