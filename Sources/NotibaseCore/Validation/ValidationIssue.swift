/// One problem with a message: the field it concerns, a stable code, and what to do about it.
public struct ValidationIssue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The path of the field, such as `buttons[1].id` or `data.aps`.
    public var field: String
    /// A stable, machine-readable code, such as `duplicate_button_id`.
    public var code: String
    /// What is wrong and what to do about it.
    public var message: String
    /// The platform it concerns, when only one platform cannot take the message.
    public var platform: Platform?
    /// Errors stop the message; warnings are advice (the message is still sent).
    public var severity: Severity

    /// How serious an issue is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The message cannot be sent as it is.
        case error
        /// The message can be sent, but will not look as the sender probably expects.
        case warning
    }

    /// An issue from its parts.
    public init(field: String, code: String, message: String, platform: Platform? = nil, severity: Severity = .error) {
        self.field = field
        self.code = code
        self.message = message
        self.platform = platform
        self.severity = severity
    }

    public var description: String {
        let scope = platform.map { " [\($0)]" } ?? ""
        return "\(field): \(message)\(scope)"
    }
}

/// A message that cannot be sent: every error found, at once.
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, errors only.
    public var issues: [ValidationIssue]

    /// An error carrying the given issues.
    public init(issues: [ValidationIssue]) {
        self.issues = issues
    }

    public var description: String {
        "the message has \(issues.count) problem\(issues.count == 1 ? "" : "s"):\n"
            + issues.map { "  - " + $0.description }.joined(separator: "\n")
    }
}
