import NotibaseDomain
/// The server's own constants (a state, an event, a JSON key) written into SQL as string literals,
/// quoted alike on every backend. Never for input: input is bound as a parameter.
package enum SQLConstant {
    /// `'value'`, any quote in it doubled.
    package static func quoted(_ value: String) -> String { "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'" }

    /// A list for `IN (…)`: each value once, in the order given.
    package static func list(_ values: [String]) -> String {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }.map(quoted).joined(separator: ", ")
    }
}
