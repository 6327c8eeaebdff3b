import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// `script/postgres`, the tests' and benchmarks' throwaway PostgreSQL server, leaves the folder
/// it is given alone but for what its server's user needs. It once set that folder's parent to
/// mode 755: given a folder right in /tmp, it took /tmp's sticky, world-writable mode away, and
/// apt-get and every other user of /tmp then failed on that machine. (It changes modes only when
/// run as root, as CI runs it.)
@Suite("script/postgres", .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/postgresql")))
struct ThrowawayPostgresTests {
    static let script = TestProducts.packageRoot.appendingPathComponent("script/postgres").path

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aClusterInAWorldWritableFolderLeavesItsModeAlone() async throws {
        let parent = TemporaryDirectory("notibase-shared")
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: parent.path)
        let cluster = parent.path + "/cluster"
        let (status, output) = try await runToEnd(Self.script, ["start", cluster])
        let mode = try Self.mode(parent.path)
        _ = try await runToEnd(Self.script, ["stop", cluster])
        #expect(status == 0, "\(output)")
        #expect(output.hasPrefix("postgres://"), "\(output)")
        #expect(mode == 0o1777, "the folder's mode became \(String(mode, radix: 8))")
    }
}
