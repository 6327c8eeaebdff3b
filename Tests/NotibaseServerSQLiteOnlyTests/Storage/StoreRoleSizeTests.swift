import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The store's seam stays a set of small roles (issue 45; docs/architecture.md, "The store in
/// roles"): a protocol of many requirements makes every backend write them all, and every service
/// that holds it see them all. A role that grows past the limit is split by who uses it.
@Suite struct StoreRoleSizeTests {
    static let limit = 12
    static let roles = TestProducts.packageRoot.appendingPathComponent("Sources/NotibaseStore/Roles")

    /// The requirements each protocol declared in `text` lists: its members, at the protocol's
    /// first indentation (declarations inside a member's comment or a nested body do not count).
    static func requirements(in text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let match = line.firstMatch(of: /^(?:package |public )?protocol (\w+)/) {
                current = String(match.1)
                counts[current!] = 0
            } else if line.hasPrefix("}") {
                current = nil
            } else if let role = current, line.firstMatch(of: /^    (?:@\w+ )*(?:static |mutating |nonisolated )*(?:func|var|subscript|init)\b/) != nil {
                counts[role, default: 0] += 1
            }
        }
        return counts
    }

    @Test func noRoleHasMoreThanTwelveRequirements() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.roles.path).filter { $0.hasSuffix(".swift") }
        var all: [String: Int] = [:]
        for file in files {
            let text = try String(contentsOf: Self.roles.appendingPathComponent(file), encoding: .utf8)
            all.merge(Self.requirements(in: text)) { $0 + $1 }
        }
        #expect(all.count >= 10, "the roles were not found in \(Self.roles.path)")
        for (role, count) in all.sorted(by: { $0.key < $1.key }) {
            #expect(count <= Self.limit, "\(role) has \(count) requirements: split it by who uses it (at most \(Self.limit))")
        }
    }

    @Test func theCountSeesEveryKindOfRequirement() {
        let text = """
            package protocol Sample: Sendable {
                /// A comment naming func x() does not count.
                func a() async throws
                var b: Int { get }
                static func c()
                @discardableResult func d() -> Int
            }
            """
        #expect(Self.requirements(in: text) == ["Sample": 4])
    }
}
