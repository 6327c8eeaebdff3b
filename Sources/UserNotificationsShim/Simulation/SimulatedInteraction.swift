/// What happened when the simulated person acted on a delivered notification.
public struct SimulatedInteraction: Equatable, Sendable {
    /// The notification's request identifier.
    public var requestIdentifier: String
    /// The response's action identifier: a button's identifier,
    /// `UNNotificationDefaultActionIdentifier` or `UNNotificationDismissActionIdentifier`.
    public var actionIdentifier: String
    /// The typed text, for a text input button (`UNTextInputNotificationResponse.userText`).
    public var userText: String?
    /// Whether the action brings the app to the foreground (a tap on the notification, or a button
    /// with the `foreground` option).
    public var opensApp: Bool
    /// Whether the app's delegate heard of it.
    public var delegateOutcome: DelegateOutcome

    /// Whether, and how, the center's delegate handled the response.
    public enum DelegateOutcome: String, Equatable, Sendable, Codable {
        /// The delegate was called and called its completion handler.
        case completed
        /// The delegate was called but did not call its completion handler within
        /// `SimulatedDevice.delegateCompletionTimeout`.
        case completionHandlerNotCalled
        /// The center has no delegate: the response is lost.
        case noDelegate
        /// Not reported, as on iOS: a dismissal reaches the delegate only when the category has
        /// `customDismissAction`.
        case notReported
    }
}
