import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotibaseCore
import NotibaseTestSupport
import Testing
@testable import Notibase
@testable import NotibaseExtension

/// The iOS SDK names its version, `NotibaseVersion.current`, in every request to the server (the
/// `User-Agent`, from the extension and from the app) and in the device's registration.
@Suite("The iOS SDK's version on the wire")
struct SDKVersionTests {
    let server = URL(string: "https://push.example.com")!

    @Test func theExtensionsReceiptsCarryTheUserAgent() throws {
        let poster = HTTPReceiptPoster(endpoint: ReceiptEndpoint(serverURL: server, clientKey: "nb_client_x"))
        let receipt = Receipt(id: "r1", deliveryID: "d1", event: .opened, occurredAt: Date(timeIntervalSince1970: 1_800_000_000))
        let request = try #require(poster.request(for: receipt, timeout: .seconds(5)))
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "Notibase-iOS/" + NotibaseVersion.current)
        #expect(request.url?.path == "/v1/receipts")
    }

    @Test func theAppsRequestsCarryTheUserAgent() {
        let connection = ServerConnection(serverURL: server, clientKey: "nb_client_x")
        let request = connection.request("v1/devices", body: Data("{}".utf8), timeout: .seconds(5))
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "Notibase-iOS/" + NotibaseVersion.current)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer nb_client_x")
    }

    @Test func theRegistrationNamesTheVersion() {
        #expect(NotibaseConfiguration.sdkVersion == "notibase-ios/" + NotibaseVersion.current)
    }

    /// The version is a semantic version, and the one `Version.swift` spells (where the release
    /// scripts read it).
    @Test func theVersionIsTheOneWrittenInVersionSwift() throws {
        #expect(NotibaseVersion.current.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?/) != nil)
        let file = try String(contentsOf: TestProducts.packageRoot.appendingPathComponent("Sources/NotibaseCore/Version.swift"), encoding: .utf8)
        #expect(file.contains("static let current = \"\(NotibaseVersion.current)\""))
    }
}
