/// A mistake in how a test drives the simulation (not something iOS would report).
public struct SimulationError: Error, Equatable, CustomStringConvertible {
    private enum Kind: Equatable {
        case notDelivered(String)
        case buttonNotShown(String, request: String)
        case notATextInputButton(String)
        case payloadNotAJSONObject
    }

    private let kind: Kind

    /// No notification with this request identifier is on screen (never delivered, or already
    /// tapped or dismissed).
    public static func notDelivered(_ requestIdentifier: String) -> SimulationError {
        SimulationError(kind: .notDelivered(requestIdentifier))
    }

    /// The notification was drawn without this button.
    public static func buttonNotShown(_ actionIdentifier: String, inNotification requestIdentifier: String) -> SimulationError {
        SimulationError(kind: .buttonNotShown(actionIdentifier, request: requestIdentifier))
    }

    /// Text was typed into a button that has no text field.
    public static func notATextInputButton(_ actionIdentifier: String) -> SimulationError {
        SimulationError(kind: .notATextInputButton(actionIdentifier))
    }

    /// The payload JSON is not an object.
    public static let payloadNotAJSONObject = SimulationError(kind: .payloadNotAJSONObject)

    /// What went wrong and what to do.
    public var description: String {
        switch kind {
        case .notDelivered(let request):
            "No notification \(request) is on screen: deliver it first (taps and dismissals remove it)."
        case .buttonNotShown(let button, let request):
            "Notification \(request) was drawn without a button \(button): check DrawnNotification.buttons and buttonsReason."
        case .notATextInputButton(let button):
            "Button \(button) has no text field: tap it without userText."
        case .payloadNotAJSONObject:
            "The payload is not a JSON object: pass the APNs payload, {\"aps\": {…}, …}."
        }
    }
}
