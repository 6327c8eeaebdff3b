/// An action button on a notification.
///
/// On iOS a button becomes a `UNNotificationAction` (or a `UNTextInputNotificationAction` when it
/// has ``input``) in a category that the Notibase extension registers at delivery time; on Android
/// the app builds a `Notification.Action` from it. Its JSON form is the `nb_buttons` shape:
///
/// ```json
/// {"id": "reply", "text": "Reply", "options": ["foreground"], "icon": "system:arrowshape.turn.up.left",
///  "input": {"button": "Send", "placeholder": "Message…"}, "url": "shop://orders/42"}
/// ```
public struct Button: Sendable, Hashable {
    /// The action identifier reported back when the user taps the button. Unique within a message,
    /// not empty, and not starting with `com.apple.` (iOS reserves those).
    public var id: String
    /// The title drawn on the button.
    public var text: String
    /// How the system treats a tap. When the JSON omits `options`, it means `[foreground]`.
    public var options: ButtonOptions
    /// An optional icon: `system:NAME` (an SF Symbol) or `template:NAME` (an image in the app's
    /// asset catalogue). Shown on iOS 15 and later.
    public var icon: String?
    /// Present when the button opens a text field (a reply button).
    public var input: TextInput?
    /// A deep link opened when the button is tapped. Not part of the category identifier: two
    /// buttons that differ only in their link share one registered category.
    public var url: String?

    /// The text field of a reply button.
    public struct TextInput: Sendable, Hashable, Codable {
        /// The title of the send button next to the field (empty lets the system choose).
        public var button: String?
        /// The placeholder shown in the empty field.
        public var placeholder: String?

        /// A text field with the given send-button title and placeholder.
        public init(button: String? = nil, placeholder: String? = nil) {
            self.button = button
            self.placeholder = placeholder
        }
    }

    /// A button; `options` defaults to `[.foreground]`, as when the JSON omits them.
    public init(
        id: String,
        text: String,
        options: ButtonOptions = .default,
        icon: String? = nil,
        input: TextInput? = nil,
        url: String? = nil
    ) {
        self.id = id
        self.text = text
        self.options = options
        self.icon = icon
        self.input = input
        self.url = url
    }
}

/// What a tap on a button does, as a set of ``ButtonOption`` values.
public struct ButtonOptions: Sendable, Hashable, Codable, ExpressibleByArrayLiteral {
    /// The options, without repeats.
    public var members: Set<ButtonOption>

    /// The meaning of an absent `options` field: `[foreground]`.
    public static let `default`: ButtonOptions = [.foreground]

    /// Options from a list; repeats are ignored.
    public init(_ members: some Sequence<ButtonOption>) {
        self.members = Set(members)
    }

    public init(arrayLiteral elements: ButtonOption...) {
        self.init(elements)
    }

    /// Whether the set holds `option`.
    public func contains(_ option: ButtonOption) -> Bool {
        members.contains(option)
    }

    /// The options in canonical order: `authenticationRequired`, `destructive`, `foreground`.
    public var canonicalOrder: [ButtonOption] {
        ButtonOption.allCases.filter(members.contains)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode([ButtonOption].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(canonicalOrder)
    }
}

/// One thing a tap on a button can require. The cases are Notibase's own, mapped to
/// `UNNotificationActionOptions` on iOS.
public enum ButtonOption: String, Sendable, Hashable, Codable, CaseIterable {
    /// The device must be unlocked before the action runs.
    case authenticationRequired
    /// Drawn in red, for actions that delete or cancel.
    case destructive
    /// Brings the app to the foreground. Without it the action runs in the background.
    case foreground
}
