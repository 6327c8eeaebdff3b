/// Where one delivery (one message to one device) stands. The history keeps every step; the
/// state is the furthest one reached.
package enum DeliveryState: String, Sendable, Codable, CaseIterable {
    /// Waiting to be sent (or being sent right now).
    case queued
    /// A send failed for a reason that may pass; the next attempt is scheduled.
    case retrying
    /// The provider accepted it.
    case sent
    /// It can never be delivered: the provider's reason, or the retry budget ran out.
    case failed
    /// The message was cancelled before this delivery was sent, or (a message addressed by user)
    /// its device signed out of that user first.
    case cancelled
    /// The device's extension drew it (from its receipt).
    case rendered
    /// The app received it as a silent background push (from its receipt): nothing was drawn.
    case received
    /// The user tapped the notification.
    case opened
    /// The user tapped a button.
    case action
    /// The user dismissed it.
    case dismissed

    /// Whether the queue is done with it.
    package var isFinal: Bool { self != .queued && self != .retrying }

    /// How far along it is; a receipt never moves a delivery backwards.
    package var rank: Int {
        switch self {
        case .queued, .retrying: 0
        case .sent, .failed, .cancelled: 1
        case .rendered, .received: 2
        case .opened, .action, .dismissed: 3
        }
    }
}
