extension Button: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, text, options, icon, input, url
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            text: try container.decode(String.self, forKey: .text),
            options: try container.decodeIfPresent(ButtonOptions.self, forKey: .options) ?? .default,
            icon: try container.decodeIfPresent(String.self, forKey: .icon),
            input: try container.decodeIfPresent(TextInput.self, forKey: .input),
            url: try container.decodeIfPresent(String.self, forKey: .url)
        )
    }

    /// Writes the `nb_buttons` shape; `options` is left out when it is the default `[foreground]`,
    /// which saves payload bytes and means the same.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(text, forKey: .text)
        if options != .default { try container.encode(options, forKey: .options) }
        try container.encodeIfPresent(icon, forKey: .icon)
        try container.encodeIfPresent(input, forKey: .input)
        try container.encodeIfPresent(url, forKey: .url)
    }
}

extension Button.TextInput {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case button, placeholder
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            button: try container.decodeIfPresent(String.self, forKey: .button),
            placeholder: try container.decodeIfPresent(String.self, forKey: .placeholder)
        )
    }
}
