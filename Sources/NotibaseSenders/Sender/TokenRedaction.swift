/// Device tokens in logs and explanations: enough to tell tokens apart, not enough to send to them.
/// The one rule for every module (docs/decisions/0008-token-redaction.md).
package enum TokenRedaction {
    /// The first 6 and the last 4 characters of `token` around an ellipsis (`"a1b2c3…7e8f"`);
    /// a token of 12 characters or fewer is hidden entirely.
    package static func shorten(_ token: String) -> String {
        guard token.count > 12 else { return "…" }
        return String(token.prefix(6)) + "…" + String(token.suffix(4))
    }
}
