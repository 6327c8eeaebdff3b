extension Message {
    /// The fields a silent background push may not have: everything iOS or Android would draw or
    /// present (text, buttons, image, sound, badge, the tap's link, grouping and ranking, the
    /// category, the iPad window). What stays: `data`, `collapseId`, `ttl`/`expiresAt` and
    /// `priority` (which a background push does not use: APNs 5, FCM NORMAL).
    var drawnFields: [String] {
        var fields: [String] = []
        if title != nil { fields.append("title") }
        if subtitle != nil { fields.append("subtitle") }
        if body != nil { fields.append("body") }
        if !buttons.isEmpty { fields.append("buttons") }
        if imageURL != nil { fields.append("image") }
        if url != nil { fields.append("url") }
        if sound != nil { fields.append("sound") }
        if badge != nil { fields.append("badge") }
        if threadID != nil { fields.append("threadId") }
        if interruptionLevel != nil { fields.append("interruptionLevel") }
        if relevanceScore != nil { fields.append("relevanceScore") }
        if category != nil { fields.append("category") }
        if targetContentID != nil { fields.append("targetContentId") }
        return fields
    }

    /// A background message's own rules: nothing drawn (each drawn field named), and a warning
    /// when it asks for high priority, which it does not get.
    func validateBackground(into issues: inout [ValidationIssue]) {
        for field in drawnFields {
            issues.append(.init(
                field: field, code: "not_with_background",
                message: "a background message draws nothing: leave \(field) out, or send an alert instead of background: true"))
        }
        if priority == .high {
            issues.append(.init(
                field: "priority", code: "ignored_with_background",
                message: "a background push goes at APNs priority 5 and FCM NORMAL (Apple refuses 10 for background pushes)",
                severity: .warning))
        }
    }
}
