/// Device tokens in logs and explanations: enough to recognise, not enough to use.
package enum TokenRedaction {
    /// The first 8 characters of `token` and an ellipsis (`"a1b2c3d4…"`); short tokens are fully
    /// hidden.
    package static func shorten(_ token: String) -> String {
        token.count > 12 ? String(token.prefix(8)) + "…" : "…"
    }
}
