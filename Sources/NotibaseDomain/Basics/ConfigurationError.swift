/// A setting that cannot work as given; the message says which and what to use instead.
package struct ConfigurationError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
