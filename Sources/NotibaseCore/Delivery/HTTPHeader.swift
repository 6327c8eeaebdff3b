/// One header of a provider request, in the order it is sent.
public struct HTTPHeader: Sendable, Hashable, Codable {
    /// The lowercase header name, such as `apns-priority`.
    public var name: String
    /// The value.
    public var value: String

    /// A header with the given name and value.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
