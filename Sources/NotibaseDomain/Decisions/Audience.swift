import NotibaseCore

/// Who a message goes to. Only active devices of the sending app are ever targeted.
///
/// JSON: exactly one of `{"deviceIds": [...]}`, `{"externalUserIds": [...]}`,
/// `{"tags": {"allOf": [...]}}`, `{"tags": {"anyOf": [...]}}`, `{"all": true}`.
package enum Audience: Sendable, Hashable {
    /// These devices.
    case devices([String])
    /// Every device of these users of the app.
    case externalUsers([String])
    /// Devices that have every one of these tags.
    case allTags([String])
    /// Devices that have at least one of these tags.
    case anyTag([String])
    /// Every active device.
    case everyone
}

extension Audience {
    /// The device or user IDs of a listed audience; nil for tags and everyone.
    package var listed: [String]? {
        switch self {
        case .devices(let ids): ids
        case .externalUsers(let users): users
        case .allTags, .anyTag, .everyone: nil
        }
    }
}

extension Audience: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case deviceIDs = "deviceIds"
        case externalUserIDs = "externalUserIds"
        case tags, all
    }

    private struct TagSet: Codable {
        package var allOf: [String]?
        package var anyOf: [String]?

        package enum CodingKeys: String, CodingKey, CaseIterable { case allOf, anyOf }

        package init(allOf: [String]? = nil, anyOf: [String]? = nil) {
            self.allOf = allOf
            self.anyOf = anyOf
        }

        package init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownFields(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            allOf = try c.decodeIfPresent([String].self, forKey: .allOf)
            anyOf = try c.decodeIfPresent([String].self, forKey: .anyOf)
            guard (allOf == nil) != (anyOf == nil) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "give exactly one of allOf or anyOf"))
            }
            let key = allOf != nil ? CodingKeys.allOf : .anyOf
            if (allOf ?? anyOf ?? []).isEmpty {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "needs at least one tag")
            }
            try Audience.checkIdentifiers(allOf ?? anyOf ?? [], key, c)
        }
    }

    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard c.allKeys.count == 1, let key = c.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "give exactly one of deviceIds, externalUserIds, tags or all"))
        }
        switch key {
        case .deviceIDs: self = .devices(try Self.nonEmpty(c, .deviceIDs))
        case .externalUserIDs: self = .externalUsers(try Self.nonEmpty(c, .externalUserIDs))
        case .tags:
            let tags = try c.decode(TagSet.self, forKey: .tags)
            self = tags.allOf.map(Audience.allTags) ?? .anyTag(tags.anyOf ?? [])
        case .all:
            guard try c.decode(Bool.self, forKey: .all) else {
                throw DecodingError.dataCorruptedError(forKey: .all, in: c, debugDescription: "must be true (to target every device)")
            }
            self = .everyone
        }
    }

    private static func nonEmpty(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> [String] {
        let values = try c.decode([String].self, forKey: key)
        guard (1...10_000).contains(values.count) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "needs from 1 to 10000 values")
        }
        try checkIdentifiers(values, key, c)
        return values
    }

    /// Throws at `key` when a value holds a control character (a tag `a\u0000b` must not match `a`).
    fileprivate static func checkIdentifiers<Key: CodingKey>(_ values: [String], _ key: Key, _ c: KeyedDecodingContainer<Key>) throws {
        if values.contains(where: \.hasControlCharacters) {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "must hold no control characters")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .devices(let ids): try c.encode(ids, forKey: .deviceIDs)
        case .externalUsers(let users): try c.encode(users, forKey: .externalUserIDs)
        case .allTags(let tags): try c.encode(TagSet(allOf: tags), forKey: .tags)
        case .anyTag(let tags): try c.encode(TagSet(anyOf: tags), forKey: .tags)
        case .everyone: try c.encode(true, forKey: .all)
        }
    }
}
