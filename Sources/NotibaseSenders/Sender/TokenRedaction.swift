/// Device tokens in logs and explanations: enough to recognise, not enough to use.
public enum TokenRedaction {
    /// The first 8 characters of `token` and an ellipsis (`"a1b2c3d4…"`); short tokens are fully
    /// hidden.
    public static func shorten(_ token: String) -> String {
        token.count > 12 ? String(token.prefix(8)) + "…" : "…"
    }
}
