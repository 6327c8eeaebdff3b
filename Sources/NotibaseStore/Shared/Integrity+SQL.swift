import NotibaseDomain
/// The integrity check's rules (``IntegrityRules``), run alike on both backends (``SQLExecutor``).
extension SQLExecutor {
    /// A line for each rule the stored data breaks, naming what it found; empty when none.
    package func brokenIntegrityRules() throws -> [String] {
        try IntegrityRules.checks.compactMap { check in
            let found = try rows(check.sql, []) { $0.text(0) }
            return found.isEmpty ? nil : "\(check.problem): \(found.joined(separator: ", "))"
        }
    }
}
