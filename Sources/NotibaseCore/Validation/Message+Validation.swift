extension Message {
    /// The most bytes a collapse ID may have (APNs' limit).
    public static let maximumCollapseIDBytes = 64
    /// The longest TTL any provider accepts: 28 days (FCM's limit).
    public static let maximumTTL = 2_419_200

    /// Every problem with the message for the given platforms, errors and warnings, in field order.
    /// A platform-specific limit (button counts, reserved keys) is an error only for a platform in
    /// `platforms`, and names it.
    public func validate(for platforms: Set<Platform> = Set(Platform.allCases)) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        if background { validateBackground(into: &issues) } else { validateText(into: &issues) }
        validateButtons(for: platforms, into: &issues)
        validateLinks(into: &issues)
        validateDelivery(into: &issues)
        validateData(for: platforms, into: &issues)
        return issues
    }

    /// The message itself when it has no errors; otherwise throws them all. Warnings do not throw.
    public func validated(for platforms: Set<Platform> = Set(Platform.allCases)) throws(ValidationError) -> Message {
        let errors = validate(for: platforms).filter { $0.severity == .error }
        if !errors.isEmpty { throw ValidationError(issues: errors) }
        return self
    }

    private func validateText(into issues: inout [ValidationIssue]) {
        if (title ?? "").isEmpty && (body ?? "").isEmpty {
            issues.append(.init(
                field: "body", code: "missing_text",
                message: "give the message a title or a body: iOS shows nothing, and does not run the extension, for an alert without text"))
        }
        if let sound, sound.isEmpty {
            issues.append(.init(field: "sound", code: "empty", message: "use \"default\" or the name of a sound file in the app, or leave sound out"))
        }
        if let badge, badge < 0 {
            issues.append(.init(field: "badge", code: "out_of_range", message: "the badge must be 0 (clears it) or more, not \(badge)"))
        }
        if let threadID, threadID.isEmpty {
            issues.append(.init(field: "threadId", code: "empty", message: "leave threadId out instead of sending an empty one"))
        }
        if let relevanceScore, !(0...1).contains(relevanceScore) {
            issues.append(.init(
                field: "relevanceScore", code: "out_of_range",
                message: "the relevance score must be from 0 to 1, not \(relevanceScore)"))
        }
        if let level = interruptionLevel {
            if !InterruptionLevel.known.contains(level) {
                issues.append(.init(
                    field: "interruptionLevel", code: "unknown_value",
                    message: "use one of passive, active, time-sensitive, critical, not \"\(level.rawValue)\""))
            } else if level == .critical {
                issues.append(.init(
                    field: "interruptionLevel", code: "needs_entitlement",
                    message: "critical alerts need an entitlement Apple grants; without it iOS presents the notification as active",
                    platform: .ios, severity: .warning))
            }
        }
    }

    private func validateButtons(for platforms: Set<Platform>, into issues: inout [ValidationIssue]) {
        var seen: [String: Int] = [:]
        for (index, button) in buttons.enumerated() {
            let field = "buttons[\(index)]"
            if button.id.isEmpty {
                issues.append(.init(field: field + ".id", code: "empty", message: "give the button an id: it is what a tap reports back"))
            } else if let first = seen[button.id] {
                issues.append(.init(
                    field: field + ".id", code: "duplicate_button_id",
                    message: "the id \"\(button.id)\" is already used by buttons[\(first)]; button ids must be unique within a message"))
            } else {
                seen[button.id] = index
            }
            if button.id.hasControlCharacters {
                issues.append(.init(field: field + ".id", code: "control_character", message: "a button id holds no control characters (U+0000 to U+001F, U+007F to U+009F)"))
            }
            if button.id.hasPrefix("com.apple.") {
                issues.append(.init(
                    field: field + ".id", code: "reserved",
                    message: "ids starting with com.apple. are reserved by iOS for the default and dismiss actions; choose another id"))
            }
            if button.text.isEmpty {
                issues.append(.init(field: field + ".text", code: "empty", message: "give the button a text: it is the label drawn on it"))
            }
            if let icon = button.icon, !Self.isValidIcon(icon) {
                issues.append(.init(
                    field: field + ".icon", code: "invalid_icon",
                    message: "write the icon as system:NAME (an SF Symbol) or template:NAME (an image in the app), not \"\(icon)\""))
            }
            if let url = button.url, !Self.isValidLink(url) {
                issues.append(.init(
                    field: field + ".url", code: "invalid_url",
                    message: "a deep link needs a scheme, such as myapp://orders/42 or https://example.com/orders/42"))
            }
        }
        for platform in Platform.allCases where platforms.contains(platform) && buttons.count > platform.maximumButtons {
            issues.append(.init(
                field: "buttons", code: "too_many_buttons",
                message: "\(platform) shows at most \(platform.maximumButtons) buttons and this message has \(buttons.count); "
                    + "remove some, or send a separate message to \(platform) devices",
                platform: platform))
        }
        if platforms.contains(.ios) && buttons.count > 2 && buttons.count <= Platform.ios.maximumButtons {
            issues.append(.init(
                field: "buttons", code: "banner_shows_two",
                message: "iOS shows only the first 2 buttons in a banner; the others appear when the notification is expanded",
                platform: .ios, severity: .warning))
        }
        if category != nil && !buttons.isEmpty {
            issues.append(.init(
                field: "category", code: "ignored_with_buttons",
                message: "with buttons, Notibase registers its own category on iOS and this category is not used",
                platform: .ios, severity: .warning))
        }
    }

    private func validateLinks(into issues: inout [ValidationIssue]) {
        if let imageURL {
            if !imageURL.lowercased().hasPrefix("https://") || Self.host(of: imageURL) == nil {
                issues.append(.init(
                    field: "image", code: "image_not_https",
                    message: "the image must be an https URL with a host (iOS App Transport Security blocks plain http)"))
            }
        }
        if let url, !Self.isValidLink(url) {
            issues.append(.init(
                field: "url", code: "invalid_url",
                message: "a deep link needs a scheme, such as myapp://orders/42 or https://example.com/orders/42"))
        }
    }

    private func validateDelivery(into issues: inout [ValidationIssue]) {
        if let collapseID {
            if collapseID.isEmpty {
                issues.append(.init(field: "collapseId", code: "empty", message: "leave collapseId out instead of sending an empty one"))
            } else if collapseID.utf8.count > Self.maximumCollapseIDBytes {
                issues.append(.init(
                    field: "collapseId", code: "too_long",
                    message: "the collapse ID has \(collapseID.utf8.count) bytes; APNs accepts at most \(Self.maximumCollapseIDBytes)"))
            }
        }
        if let ttl, !(0...Self.maximumTTL).contains(ttl) {
            issues.append(.init(
                field: "ttl", code: "out_of_range",
                message: "the TTL must be from 0 to \(Self.maximumTTL) seconds (28 days), not \(ttl)"))
        }
        if ttl != nil && expiresAt != nil {
            issues.append(.init(field: "expiresAt", code: "conflict", message: "give either ttl or expiresAt, not both"))
        }
        if let category, category.isEmpty {
            issues.append(.init(field: "category", code: "empty", message: "leave category out instead of sending an empty one"))
        }
        for (field, value) in [("category", category), ("collapseId", collapseID), ("threadId", threadID), ("targetContentId", targetContentID)]
        where value?.hasControlCharacters == true {
            issues.append(.init(field: field, code: "control_character", message: "\(field) holds no control characters (U+0000 to U+001F, U+007F to U+009F)"))
        }
    }

    /// How deep custom data may nest: far more than any app needs, far less than what makes
    /// encoders and decoders give up (about 500 levels).
    public static let maximumDataDepth = 32

    private func validateData(for platforms: Set<Platform>, into issues: inout [ValidationIssue]) {
        for key in data.keys.sorted() {
            let field = "data." + key
            if let value = data[key], value.depth > Self.maximumDataDepth {
                issues.append(.init(
                    field: field, code: "too_deep",
                    message: "custom data may nest at most \(Self.maximumDataDepth) levels deep"))
            }
            if key == "aps" {
                issues.append(.init(
                    field: field, code: "reserved_key",
                    message: "aps is Apple's dictionary; set alert, sound, badge and the rest through the message's own fields"))
            } else if key.hasPrefix("nb_") {
                issues.append(.init(
                    field: field, code: "reserved_key",
                    message: "keys starting with nb_ are Notibase's own (buttons, image, receipt ids); rename the key"))
            } else if key.isEmpty {
                issues.append(.init(field: "data", code: "empty_key", message: "custom data keys must not be empty"))
            } else if key.hasControlCharacters {
                issues.append(.init(field: "data", code: "control_character", message: "custom data keys hold no control characters (U+0000 to U+001F, U+007F to U+009F)"))
            } else if FCMRenderer.isReservedDataKey(key) {
                issues.append(.init(
                    field: field, code: "reserved_key",
                    message: "FCM reserves from, message_type, collapse_key, notification and keys starting with google. or gcm.; rename the key",
                    platform: .android, severity: platforms.contains(.android) ? .error : .warning))
            }
        }
    }

    static func isValidIcon(_ icon: String) -> Bool {
        for prefix in ["system:", "template:"] where icon.hasPrefix(prefix) {
            return icon.count > prefix.count
        }
        return false
    }

    /// A deep link: `scheme:` followed by something, the scheme being RFC 3986 (a letter, then
    /// letters, digits, `+`, `-`, `.`).
    static func isValidLink(_ link: String) -> Bool {
        guard let colon = link.firstIndex(of: ":"), colon != link.startIndex, link.index(after: colon) != link.endIndex else {
            return false
        }
        let scheme = link[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
            && !link.contains(where: { $0.isWhitespace })
    }

    /// The host of an `https://host/...` URL, if it has a non-empty one.
    static func host(of url: String) -> Substring? {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        let rest = url[url.index(colon, offsetBy: 3)...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last?.split(separator: ":").first
        return host.flatMap { $0.isEmpty || $0.contains(where: { $0.isWhitespace }) ? nil : $0 }
    }
}
