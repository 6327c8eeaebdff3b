enum OpenAPIDocument { static let bytes: [UInt8] = Array("{}".utf8) }
