#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The tolerant reader behind ``NotificationPayload``: one pass, every decision recorded.
struct PayloadReader {
    private var diagnostics: [PayloadDiagnostic] = []

    mutating func read(_ userInfo: [AnyHashable: Any]) -> NotificationPayload {
        var title: String?
        var subtitle: String?
        var body: String?
        var category: String?
        var mutableContent = false
        var contentAvailable = false

        if let apsValue = userInfo["aps"] {
            if let aps = Self.dictionary(apsValue) {
                switch aps["alert"] {
                case nil: break
                case let text as String: body = text
                case let alertValue?:
                    if let alert = Self.dictionary(alertValue) {
                        title = string(alert["title"], field: "aps.alert.title")
                        subtitle = string(alert["subtitle"], field: "aps.alert.subtitle")
                        body = string(alert["body"], field: "aps.alert.body")
                    } else {
                        note("aps.alert", "expected a string or an object; ignored")
                    }
                }
                category = string(aps["category"], field: "aps.category")
                mutableContent = flag(aps["mutable-content"], field: "aps.mutable-content")
                contentAvailable = flag(aps["content-available"], field: "aps.content-available")
            } else {
                note("aps", "expected an object; ignored")
            }
        } else {
            note("aps", "missing: this is not an APNs alert payload")
        }

        let buttons = readButtons(userInfo[PayloadKey.buttons])
        let imageURL = string(userInfo[PayloadKey.image], field: PayloadKey.image)
        let url = string(userInfo[PayloadKey.url], field: PayloadKey.url)
        let messageID = string(userInfo[PayloadKey.message], field: PayloadKey.message)
        let deliveryID = string(userInfo[PayloadKey.delivery], field: PayloadKey.delivery)
        let signature = string(userInfo[PayloadKey.signature], field: PayloadKey.signature)
        var payload = NotificationPayload(
            title: title, subtitle: subtitle, body: body, category: category, mutableContent: mutableContent,
            buttons: buttons, imageURL: imageURL, url: url, messageID: messageID, deliveryID: deliveryID,
            receiptSignature: signature, diagnostics: diagnostics)
        payload.contentAvailable = contentAvailable
        return payload
    }

    private mutating func readButtons(_ value: Any?) -> [Button] {
        guard let value else { return [] }
        var list: [Any]
        if let array = value as? [Any] {
            list = array
        } else if let text = value as? String {
            // FCM-style: the list as a JSON string.
            guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
                case .array = json, let array = json.foundationValue as? [Any]
            else {
                note(PayloadKey.buttons, "a string that is not a JSON array; no buttons")
                return []
            }
            list = array
        } else {
            note(PayloadKey.buttons, "expected an array; no buttons")
            return []
        }
        let limit = Platform.ios.maximumButtons
        if list.count > limit {
            note(PayloadKey.buttons, "\(list.count) buttons; iOS draws at most \(limit), the rest are dropped")
            list = Array(list.prefix(limit))
        }
        var buttons: [Button] = []
        var seen: Set<String> = []
        for (index, entry) in list.enumerated() {
            guard let button = readButton(entry, index: index) else { continue }
            guard seen.insert(button.id).inserted else {
                note(Self.buttonField(index, ".id"), "\"\(button.id)\" repeats an earlier button's id; skipped")
                continue
            }
            buttons.append(button)
        }
        return buttons
    }

    /// `nb_buttons[index]` and `suffix`: built only for a note, never on the way of a good payload.
    private static func buttonField(_ index: Int, _ suffix: String = "") -> String {
        "\(PayloadKey.buttons)[\(index)]\(suffix)"
    }

    private mutating func readButton(_ entry: Any, index: Int) -> Button? {
        func field(_ suffix: String = "") -> String { Self.buttonField(index, suffix) }
        guard let object = Self.dictionary(entry) else {
            note(field(), "expected an object; skipped")
            return nil
        }
        guard let id = string(object["id"], field: field(".id")), !id.isEmpty else {
            note(field(".id"), "missing or empty; skipped")
            return nil
        }
        guard !id.hasPrefix("com.apple.") else {
            note(field(".id"), "ids starting with com.apple. are reserved by iOS; skipped")
            return nil
        }
        guard let text = string(object["text"], field: field(".text")), !text.isEmpty else {
            note(field(".text"), "missing or empty; skipped")
            return nil
        }
        var button = Button(id: id, text: text)
        if let optionsValue = object["options"] {
            button.options = readOptions(optionsValue, index: index)
        }
        if let icon = string(object["icon"], field: field(".icon")) {
            if Message.isValidIcon(icon) {
                button.icon = icon
            } else {
                note(field(".icon"), "\"\(icon)\" is neither system:NAME nor template:NAME; drawn without an icon")
            }
        }
        if let inputValue = object["input"] {
            if let input = Self.dictionary(inputValue) {
                button.input = Button.TextInput(
                    button: string(input["button"], field: field(".input.button")),
                    placeholder: string(input["placeholder"], field: field(".input.placeholder")))
            } else {
                note(field(".input"), "expected an object; drawn as a plain button")
            }
        }
        button.url = string(object["url"], field: field(".url"))
        return button
    }

    private mutating func readOptions(_ value: Any, index buttonIndex: Int) -> ButtonOptions {
        guard let list = value as? [Any] else {
            note(Self.buttonField(buttonIndex, ".options"), "expected an array; using the default [foreground]")
            return .default
        }
        var options: [ButtonOption] = []
        for (index, element) in list.enumerated() {
            if let name = element as? String, let option = ButtonOption(rawValue: name) {
                options.append(option)
            } else {
                note(Self.buttonField(buttonIndex, ".options[\(index)]"), "not one of authenticationRequired, destructive, foreground; ignored")
            }
        }
        return ButtonOptions(options)
    }

    /// A string; numbers are converted (with a note), anything else is ignored (with a note).
    private mutating func string(_ value: Any?, field: @autoclosure () -> String) -> String? {
        switch value {
        case nil: return nil
        case let text as String: return text
        case let number as Int:
            note(field(), "a number where a string belongs; used as \"\(number)\"")
            return String(number)
        default:
            note(field(), "expected a string; ignored")
            return nil
        }
    }

    /// `1`, `true` or `"1"` as true.
    private mutating func flag(_ value: Any?, field: @autoclosure () -> String) -> Bool {
        switch value {
        case nil: return false
        case let flag as Bool: return flag
        case let number as Int: return number == 1
        case let text as String: return text == "1"
        default:
            note(field(), "expected 1; treated as absent")
            return false
        }
    }

    private static func dictionary(_ value: Any) -> [String: Any]? {
        if let dictionary = value as? [String: Any] { return dictionary }
        if let dictionary = value as? [AnyHashable: Any] {
            var converted: [String: Any] = [:]
            for (key, element) in dictionary {
                if let key = key.base as? String { converted[key] = element }
            }
            return converted
        }
        return nil
    }

    private mutating func note(_ field: String, _ message: String) {
        diagnostics.append(PayloadDiagnostic(field: field, message: message))
    }
}
