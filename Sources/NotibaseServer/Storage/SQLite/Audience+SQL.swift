extension Audience {
    /// The SQL condition on the table `devices` and its parameters.
    var sqlCondition: (sql: String, values: [SQLValue]) {
        switch self {
        case .devices(let ids):
            ("devices.id IN (SELECT value FROM json_each(?))", [.text(JSON.text(ids))])
        case .externalUsers(let users):
            ("devices.external_user_id IN (SELECT value FROM json_each(?))", [.text(JSON.text(users))])
        case .allTags(let tags):
            ("(SELECT count(DISTINCT value) FROM json_each(devices.tags) WHERE value IN (SELECT value FROM json_each(?))) = ?",
             [.text(JSON.text(tags)), .int(Set(tags).count)])
        case .anyTag(let tags):
            ("EXISTS (SELECT 1 FROM json_each(devices.tags) WHERE value IN (SELECT value FROM json_each(?)))", [.text(JSON.text(tags))])
        case .everyone:
            ("1", [])
        }
    }
}
