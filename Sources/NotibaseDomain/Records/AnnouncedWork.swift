/// Work a node announces to the others through the database.
package enum AnnouncedWork: String, Sendable, CaseIterable {
    /// A message is due for fan-out.
    case fanOut = "fan-out"
    /// Deliveries were written and are due.
    case delivery
    /// An app's keys, settings or credentials changed, or it was deleted: what a node resolved
    /// of them before (``Authenticator``) is forgotten.
    case apps
}
