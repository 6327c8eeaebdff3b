import Foundation
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// A wrong database at start is a clear message and a non-zero exit, and the password in the URL
/// is never printed.
@Suite("notibase serve --database", .tags(.processes))
struct DatabaseURLTests {
    static func serve(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let directory = TemporaryDirectory()
        return try await runToEnd(try ServerProcess.binary(), ["serve", "--listen", "127.0.0.1:0", "--data-dir", directory.path + "/data"] + arguments)
    }

    @Test(arguments: [
        ["--database", "postgres://notibase:sup3r-secret-pw@127.0.0.1:1/notibase"],
        ["--database", "postgres://notibase:sup3r-secret-pw@127.0.0.1:1/notibase", "--check"],
        ["--database", "mysql://notibase:sup3r-secret-pw@127.0.0.1/notibase"],
    ])
    func aDatabaseThatCannotBeUsedIsAClearErrorWithoutThePassword(arguments: [String]) async throws {
        let (status, output) = try await Self.serve(arguments)
        #expect(status != 0)
        #expect(output.contains("database"), "\(output)")
        #expect(!output.contains("sup3r-secret-pw"), "\(output)")
    }
}
