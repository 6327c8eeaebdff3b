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

/// Where the server looks for its resources: from the binary, or where `NOTIBASE_RESOURCES_DIR`
/// says, and never in the working directory.
@Suite("Resource directory")
struct ResourceDirectoryTests {
    static let binary = URL(fileURLWithPath: "/opt/notibase/bin/notibase")

    static func located(_ present: Set<String>, environment: [String: String] = [:]) -> Result<ResourceDirectory, ConfigurationError> {
        ResourceDirectory.locate(executable: binary, environment: environment, exists: { present.contains($0) })
    }

    static func holding(_ directory: String) -> Set<String> {
        Set(ResourceDirectory.requiredFiles.map { directory + "/" + $0 })
    }

    @Test func besideTheBinaryComesBeforeTheSharedDirectory() throws {
        let both = Self.holding("/opt/notibase/bin/Notibase_NotibaseAPI.resources").union(Self.holding("/opt/notibase/share/notibase"))
        #expect(try Self.located(both).get().url.path == "/opt/notibase/bin/Notibase_NotibaseAPI.resources")
        #expect(try Self.located(Self.holding("/opt/notibase/share/notibase")).get().url.path == "/opt/notibase/share/notibase")
    }

    @Test func theEnvironmentVariableIsTheOnlyPlaceWhenSet() throws {
        let environment = [ResourceDirectory.environmentVariable: "/srv/notibase-resources"]
        let besides = Self.holding("/opt/notibase/bin/Notibase_NotibaseAPI.resources")
        #expect(try Self.located(besides.union(Self.holding("/srv/notibase-resources")), environment: environment).get().url.path == "/srv/notibase-resources")
        guard case .failure(let error) = Self.located(besides, environment: environment) else {
            Issue.record("a wrong NOTIBASE_RESOURCES_DIR fell back to the binary's resources")
            return
        }
        #expect(error.description.contains("/srv/notibase-resources") && error.description.contains("NOTIBASE_RESOURCES_DIR"))
    }

    @Test func aDirectoryMissingTheConsoleIsNotOne() {
        let half: Set = ["/opt/notibase/share/notibase/openapi.json"]
        guard case .failure(let error) = Self.located(half) else {
            Issue.record("a directory without the console's files was taken")
            return
        }
        #expect(error.description.contains("/opt/notibase/share/notibase"))
    }

    @Test func theWorkingDirectoryIsNeverACandidate() {
        let here = FileManager.default.currentDirectoryPath
        let candidates = ResourceDirectory.candidates(executable: Self.binary, environment: [:]).map(\.path)
        #expect(!candidates.contains { $0.hasPrefix(here) || !$0.hasPrefix("/opt/notibase/") }, "\(candidates)")
    }
}
