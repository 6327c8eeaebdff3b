#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What Notibase needs from a received APNs payload (`UNNotificationContent.userInfo`): the alert
/// text, the category, the buttons, the image, the deep link and the receipt ids.
///
/// Reading never fails and never crashes, whatever the payload holds: a malformed button is
/// skipped, a value of the wrong type is converted when that is unambiguous and ignored otherwise,
/// and each such decision is recorded in ``diagnostics``. The result is what was usable.
public struct NotificationPayload: Sendable, Hashable {
    /// `aps.alert.title`.
    public var title: String?
    /// `aps.alert.subtitle`.
    public var subtitle: String?
    /// `aps.alert.body`, or `aps.alert` when it is a string.
    public var body: String?
    /// `aps.category` as sent.
    public var category: String?
    /// Whether `aps.mutable-content` is 1 (without it iOS never runs the extension).
    public var mutableContent: Bool
    /// Whether `aps.content-available` is 1: iOS wakes the app in the background for it.
    public var contentAvailable = false
    /// The usable buttons from `nb_buttons`, in order (at most 10, as iOS draws).
    public var buttons: [Button]
    /// `nb_image`.
    public var imageURL: String?
    /// `nb_url`: the deep link of the notification itself.
    public var url: String?
    /// `nb_message`.
    public var messageID: String?
    /// `nb_delivery`.
    public var deliveryID: String?
    /// `nb_sig`: the receipt signature, sent back with every receipt about this delivery.
    public var receiptSignature: String?
    /// What was skipped or converted, and why.
    public var diagnostics: [PayloadDiagnostic]

    /// Whether it is a silent background push (`aps.content-available` and no alert text): what
    /// Notibase sends for a `background` message, which the app reports as `received`.
    public var isBackground: Bool {
        contentAvailable && title == nil && subtitle == nil && body == nil
    }

    /// The `notibase-category/1` identifier of ``buttons``, or nil without buttons.
    public var derivedCategoryID: String? {
        buttons.isEmpty ? nil : CategoryIdentifier.derive(from: buttons)
    }

    /// Whether `aps.category` names a category the app registered itself rather than a derived one.
    public var namesAppCategory: Bool {
        guard let category, !category.isEmpty else { return false }
        return !CategoryIdentifier.isDerived(category)
    }

    /// Reads a payload given as `userInfo`.
    public init(userInfo: [AnyHashable: Any]) {
        var reader = PayloadReader()
        self = reader.read(userInfo)
    }

    /// Reads a payload given as JSON (the APNs body).
    public init(json: JSONValue) {
        guard case .object = json, let userInfo = json.foundationValue as? [String: Any] else {
            self.init(userInfo: [:])
            diagnostics.append(PayloadDiagnostic(field: "", message: "the payload is not a JSON object"))
            return
        }
        self.init(userInfo: Dictionary(uniqueKeysWithValues: userInfo.map { (AnyHashable($0.key), $0.value) }))
    }

    init(
        title: String?, subtitle: String?, body: String?, category: String?, mutableContent: Bool,
        buttons: [Button], imageURL: String?, url: String?, messageID: String?, deliveryID: String?,
        receiptSignature: String?, diagnostics: [PayloadDiagnostic]
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.category = category
        self.mutableContent = mutableContent
        self.buttons = buttons
        self.imageURL = imageURL
        self.url = url
        self.messageID = messageID
        self.deliveryID = deliveryID
        self.receiptSignature = receiptSignature
        self.diagnostics = diagnostics
    }
}

/// Something in a payload that was skipped or converted.
public struct PayloadDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where: `nb_buttons[2].text`, `aps.alert`, …
    public var field: String
    /// What was wrong and what the reader did.
    public var message: String

    /// A diagnostic from its parts.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}

extension JSONValue {
    /// The value as Foundation property-list-like types (`String`, `Int`, `Double`, `Bool`,
    /// `[Any]`, `[String: Any]`), as `userInfo` holds them. A `null` member of an object is
    /// absent; a `null` element of an array stays in its place, as `JSONValue.null` (iOS hands over
    /// `NSNull` there), so that every element after it keeps the position it has in the payload:
    /// diagnostics name positions a developer reads against their JSON.
    public var foundationValue: Any? {
        switch self {
        case .null: nil
        case .bool(let value): value
        case .integer(let value): value
        case .double(let value): value
        case .string(let value): value
        case .array(let values): values.map { $0.foundationValue ?? JSONValue.null }
        case .object(let members): members.compactMapValues(\.foundationValue)
        }
    }
}
