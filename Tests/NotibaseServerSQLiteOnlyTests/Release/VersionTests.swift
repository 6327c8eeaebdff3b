import Foundation
import NotibaseCore
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

/// The server shows the one version (`NotibaseVersion.current`, Sources/NotibaseCore/Version.swift)
/// wherever it shows one: `GET /healthz` and the OpenAPI document's `info.version`.
@Suite("The server's version")
struct VersionTests {
    @Test func theVersionIsSemantic() {
        let parts = NotibaseVersion.current.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(NotibaseVersion.current)")
    }

    @Test func healthzNamesIt() async throws {
        let harness = try await Harness()
        let health = await harness.request("GET", "/healthz", key: nil)
        #expect(health.status == 200)
        #expect(health["status"].string == "ok")
        #expect(health["version"].string == NotibaseVersion.current)
    }

    @Test func theOpenAPIDocumentCarriesIt() async throws {
        let harness = try await Harness()
        let document = await harness.request("GET", "/openapi.json", key: nil)
        #expect(document["info"]["version"].string == NotibaseVersion.current)
        let health = document["paths"]["/healthz"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        #expect(health["required"] == ["status", "version"])
    }
}
