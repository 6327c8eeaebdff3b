package import NotibaseDomain
package import NotibaseStore
extension Audience {
    /// Where an audience's devices are read from in SQLite: a `FROM` clause that names the table
    /// `devices`, a condition on it, and the parameters of each (the clause's come first in the
    /// statement). An app's devices are then narrowed by `devices.app_id` and `devices.active`.
    ///
    /// A list of device or user IDs is looked up one entry at a time through the index on `id` or
    /// on `(app_id, external_user_id)` (`CROSS JOIN` keeps the list as the outer loop): a message
    /// to one device costs that device, not the app's whole device index (docs/decisions/0014).
    /// Each entry is looked up once, however often it is listed.
    package var sqlSource: (from: String, fromValues: [SQLParameter], condition: String, values: [SQLParameter]) {
        let listed = "(SELECT DISTINCT value FROM json_each(?)) AS wanted CROSS JOIN devices"
        return switch self {
        case .devices(let ids):
            (listed + " ON devices.id = wanted.value", [.text(JSON.text(ids))], "1", [])
        case .externalUsers(let users):
            (listed + " ON devices.external_user_id = wanted.value", [.text(JSON.text(users))], "1", [])
        case .allTags(let tags):
            ("devices", [], "(SELECT count(DISTINCT value) FROM json_each(devices.tags) WHERE value IN (SELECT value FROM json_each(?))) = ?",
             [.text(JSON.text(tags)), .int(Set(tags).count)])
        case .anyTag(let tags):
            ("devices", [], "EXISTS (SELECT 1 FROM json_each(devices.tags) WHERE value IN (SELECT value FROM json_each(?)))", [.text(JSON.text(tags))])
        case .everyone:
            ("devices", [], "1", [])
        }
    }
}
