/// A setting that cannot work as given; the message says which and what to use instead.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
