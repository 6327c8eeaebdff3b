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
@testable import NotibaseServerTestSupport

/// `GET /` from a browser opens the console; an API client still gets the API's JSON 404.
@Suite("The server's root")
struct RootRedirectTests {
    @Test(arguments: ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "TEXT/HTML"])
    func aBrowserIsSentToTheConsole(accept: String) async throws {
        let harness = try await Harness()
        let reply = await harness.request("GET", "/", key: nil, headers: ["Accept": accept])
        #expect(reply.status == 302)
        #expect(reply.headers["location"] == "/console/")
    }

    @Test(arguments: [[:], ["Accept": "application/json"], ["Accept": "*/*"]])
    func anAPIClientGetsAJSON404(headers: [String: String]) async throws {
        let harness = try await Harness()
        let reply = await harness.request("GET", "/", key: nil, headers: headers)
        #expect(reply.status == 404)
        #expect(reply.errorCode == "not_found")
        #expect(reply.headers["location"] == nil)
    }

    @Test func aPostToTheRootIsNotRedirected() async throws {
        let harness = try await Harness()
        let reply = await harness.request("POST", "/", key: nil, body: "{}", headers: ["Accept": "text/html"])
        #expect(reply.status == 404)
    }
}
