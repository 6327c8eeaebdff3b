/// A setting that cannot work as given; the message says which and what to use instead.
struct ConfigurationError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
