import NotibaseCore
@preconcurrency import UserNotificationsShim

/// What iOS would draw, and, for anything missing, the reason in plain words.
package struct PreviewResult: Sendable, Hashable, Codable {
    package struct DrawnButton: Sendable, Hashable, Codable {
        package var id: String
        package var title: String
        package var options: [String]
        package var icon: String?
        package var textInput: Bool
    }

    /// The image, as attached or not.
    package struct Image: Sendable, Hashable, Codable {
        package var requested: String?
        package var attached: Bool
        package var type: String?
        package var bytes: Int?
        package var reason: String?
    }

    package var title: String
    package var subtitle: String
    package var body: String
    package var categoryIdentifier: String
    /// Every button, in order (up to 10).
    package var buttons: [DrawnButton]
    /// The buttons a banner shows (the first 2).
    package var bannerButtons: [String]
    package var image: Image
    /// Whether the Notibase extension ran.
    package var extensionRan: Bool
    /// How the extension finished, when it ran.
    package var completion: String?
    /// The payload's size in bytes, as sent.
    package var payloadBytes: Int
    /// Why something the payload asks for will not appear, in plain words.
    package var problems: [String]
    /// Advice that is not a failure (three or more buttons, …).
    package var notes: [String]

    init(drawn: DrawnNotification, payload: NotificationPayload, report: RenderReport?, payloadBytes: Int, options: Preview.Options) {
        title = drawn.title
        subtitle = drawn.subtitle
        body = drawn.body
        categoryIdentifier = drawn.categoryIdentifier
        buttons = drawn.buttons.map { button in
            DrawnButton(
                id: button.identifier, title: button.title, options: button.options.map(\.rawValue),
                icon: button.icon.map { "\($0.source.rawValue):\($0.name)" }, textInput: button.textInput != nil)
        }
        bannerButtons = drawn.bannerButtons.map(\.identifier)
        extensionRan = drawn.contentHandlerCallCount > 0 || drawn.serviceExtensionTimeWillExpireCalled
        completion = report?.completion.rawValue
        self.payloadBytes = payloadBytes
        let attachment = drawn.attachments.first
        image = Image(
            requested: payload.imageURL, attached: attachment != nil, type: attachment?.type,
            bytes: attachment.map { Int($0.fileSize) }, reason: nil)

        var problems: [String] = []
        var notes: [String] = []
        if payloadBytes > APNsRenderer.payloadLimit {
            problems.append("The payload is \(payloadBytes) bytes; APNs refuses anything over \(APNsRenderer.payloadLimit) (PayloadTooLarge), so nothing is shown at all.")
        }
        if drawn.title.isEmpty && drawn.body.isEmpty {
            problems.append("The alert has no title and no body: iOS shows nothing, and never runs the extension.")
        }
        switch drawn.contentReason {
        case .mutableContentNotSet:
            if !payload.buttons.isEmpty || payload.imageURL != nil {
                problems.append("aps.mutable-content is not 1, so iOS never ran the Notibase extension: the buttons in nb_buttons were not registered and the image was not attached.")
            }
        case .noServiceExtension:
            if !payload.buttons.isEmpty || payload.imageURL != nil {
                problems.append("The app has no Notification Service Extension, so nothing registers the buttons in nb_buttons or attaches the image. Add the Notibase extension (docs/ios-guide.md).")
            }
        case .serviceExtensionTimedOut:
            problems.append("The extension never called its content handler in time; iOS showed the original content.")
        default:
            break
        }
        if extensionRan, let report {
            if report.completion == .deadline || report.completion == .timeWillExpire {
                problems.append("The extension ran out of time (\(report.completion.rawValue)) and showed what it had by then.")
            }
            if !payload.buttons.isEmpty, report.buttons.isEmpty, !payload.namesAppCategory {
                problems.append("The extension could not register the buttons' category; see the diagnostics.")
            }
        }
        if drawn.buttons.isEmpty {
            switch drawn.buttonsReason {
            case .categoryNotRegistered:
                problems.append("aps.category is \"\(drawn.categoryIdentifier)\", but nothing registers a category with that identifier, so iOS draws no buttons"
                    + (CategoryIdentifier.isDerived(drawn.categoryIdentifier) ? " (it is a Notibase identifier: the extension registers it only when it runs)." : " (register it in the app, or send the buttons in nb_buttons)."))
            case .categoryHasNoActions:
                problems.append("The category \"\(drawn.categoryIdentifier)\" is registered without actions.")
            default:
                break
            }
        } else if drawn.buttons.count > 2 {
            notes.append("A banner shows only the first 2 buttons (\(bannerButtons.joined(separator: ", "))); all \(drawn.buttons.count) appear when the notification is expanded.")
        }
        if payload.imageURL != nil, attachment == nil {
            let reason = report?.imageFailure
                ?? drawn.droppedAttachments.first.map { "iOS dropped the attachment: \($0.reason.rawValue)" }
                ?? (extensionRan ? "the image was not attached" : "the extension did not run")
            image.reason = reason
            if extensionRan { problems.append("No image: \(reason).") }
        }
        for diagnostic in payload.diagnostics where diagnostic.field != "aps" || !diagnostic.message.hasPrefix("missing") {
            problems.append("Payload: \(diagnostic)")
        }
        if payload.diagnostics.contains(where: { $0.field == "aps" && $0.message.hasPrefix("missing") }) {
            problems.append("The payload has no aps dictionary: this is not an APNs alert notification.")
        }
        self.problems = problems
        self.notes = notes
    }

    /// The preview as text for a terminal.
    package var text: String {
        var lines = ["What iOS would show:"]
        func field(_ name: String, _ value: String) {
            lines.append("  " + name + String(repeating: " ", count: max(10 - name.count, 1)) + value)
        }
        field("Title:", title.isEmpty ? "(none)" : title)
        if !subtitle.isEmpty { field("Subtitle:", subtitle) }
        field("Body:", body.isEmpty ? "(none)" : body)
        if buttons.isEmpty {
            field("Buttons:", "(none)")
        } else {
            field("Buttons:", buttons.map { "[\($0.title)]" }.joined(separator: " ") + (buttons.count > 2 ? "  (a banner shows the first 2)" : ""))
        }
        if image.attached {
            field("Image:", "attached (\(image.type ?? "?"), \(image.bytes ?? 0) bytes)")
        } else if image.requested != nil {
            field("Image:", "none: \(image.reason ?? "not attached")")
        }
        field("Category:", categoryIdentifier.isEmpty ? "(none)" : categoryIdentifier)
        field("Extension:", extensionRan ? "ran (\(completion ?? "?"))" : "did not run")
        field("Payload:", "\(payloadBytes) bytes")
        if !problems.isEmpty {
            lines.append("")
            lines.append("Why something is missing:")
            lines += problems.map { "  - " + $0 }
        }
        if !notes.isEmpty {
            lines.append("")
            lines.append("Notes:")
            lines += notes.map { "  - " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
