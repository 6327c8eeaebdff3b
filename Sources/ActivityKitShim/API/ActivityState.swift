/// Where an activity is in its life.
public enum ActivityState: Sendable, Codable, Hashable {
    /// On screen, updatable.
    case active
    /// Ended: no more updates; still on the Lock Screen until dismissed.
    case ended
    /// Gone from the screen (the person removed it, or the system did after it ended).
    case dismissed
    /// Past its stale date without an update.
    case stale
}
