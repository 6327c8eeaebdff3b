/// What the iOS extension did with one notification: the category it registered, the buttons iOS
/// will draw, whether the image was attached and, if not, why. The server keeps it in the delivery
/// log, so "delivered" can become "rendered with 2 buttons and the image".
public struct RenderReport: Sendable, Hashable, Codable {
    /// The category identifier the content was given (derived, or the app's own).
    public var categoryID: String?
    /// The identifiers of the buttons registered under that category, in order.
    public var buttons: [String]
    /// Whether an image was attached.
    public var imageAttached: Bool
    /// Why no image was attached, when one was requested (`http URL`, `404`, `too large`, …).
    public var imageFailure: String?
    /// How the extension finished.
    public var completion: Completion
    /// Milliseconds from `didReceive` to the content handler.
    public var elapsedMilliseconds: Int
    /// Problems found in the payload (a malformed button skipped, …).
    public var diagnostics: [String]

    /// How the extension handed the content back.
    public enum Completion: String, Sendable, Hashable, Codable {
        /// Everything was done.
        case complete
        /// The extension's own deadline passed; the best content so far was shown.
        case deadline
        /// iOS called `serviceExtensionTimeWillExpire`; the best content so far was shown.
        case timeWillExpire
        /// Something failed; the original content was shown.
        case failed
    }

    /// A report from its parts.
    public init(
        categoryID: String?,
        buttons: [String],
        imageAttached: Bool,
        imageFailure: String? = nil,
        completion: Completion,
        elapsedMilliseconds: Int,
        diagnostics: [String] = []
    ) {
        self.categoryID = categoryID
        self.buttons = buttons
        self.imageAttached = imageAttached
        self.imageFailure = imageFailure
        self.completion = completion
        self.elapsedMilliseconds = elapsedMilliseconds
        self.diagnostics = diagnostics
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case categoryID = "categoryId"
        case buttons, imageAttached, imageFailure, completion, elapsedMilliseconds, diagnostics
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            categoryID: try c.decodeIfPresent(String.self, forKey: .categoryID),
            buttons: try c.decodeIfPresent([String].self, forKey: .buttons) ?? [],
            imageAttached: try c.decodeIfPresent(Bool.self, forKey: .imageAttached) ?? false,
            imageFailure: try c.decodeIfPresent(String.self, forKey: .imageFailure),
            completion: try c.decode(Completion.self, forKey: .completion),
            elapsedMilliseconds: try c.decodeIfPresent(Int.self, forKey: .elapsedMilliseconds) ?? 0,
            diagnostics: try c.decodeIfPresent([String].self, forKey: .diagnostics) ?? []
        )
    }
}
