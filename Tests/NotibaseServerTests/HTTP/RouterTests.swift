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

@Suite("Router")
struct RouterTests {
    let router: Router = {
        var router = Router()
        router.add(.get, "/v1/devices") { _, _ in HTTPResponse(status: 200, body: Array("list".utf8)) }
        router.add(.get, "/v1/devices/{deviceId}") { _, parameters in HTTPResponse(status: 200, body: Array(try parameters["deviceId"].utf8)) }
        router.add(.delete, "/v1/devices/{deviceId}") { _, _ in HTTPResponse(status: 204) }
        router.add(.get, "/v1/devices/{deviceId}/deliveries") { _, parameters in HTTPResponse(status: 200, body: Array(("d:" + (try parameters["deviceId"])).utf8)) }
        return router
    }()

    func body(_ method: String, _ path: String) async throws -> String? {
        guard case .found(_, let handler, _, let parameters) = router.match(method: method, path: path) else { return nil }
        return try await handler(HTTPRequest(method: method, path: path), parameters).text
    }

    @Test func matchesLiteralAndParameterSegments() async throws {
        #expect(try await body("GET", "/v1/devices") == "list")
        #expect(try await body("GET", "/v1/devices/abc") == "abc")
        #expect(try await body("GET", "/v1/devices/abc/deliveries") == "d:abc")
        #expect(try await body("GET", "/v1/devices/abc/") == "abc")
    }

    @Test func unknownPathIsNotFoundAndWrongMethodListsTheAllowedOnes() {
        guard case .notFound = router.match(method: "GET", path: "/v1/devicez") else { Issue.record("expected notFound"); return }
        guard case .methodNotAllowed(let allowed) = router.match(method: "PUT", path: "/v1/devices/abc") else {
            Issue.record("expected methodNotAllowed"); return
        }
        #expect(allowed.sorted() == ["DELETE", "GET"])
    }

    @Test func theMostLiteralPatternWinsAndOnlyItsMethodsAreAllowed() {
        var router = self.router
        router.add(.post, "/v1/devices/batch") { _, _ in HTTPResponse(status: 200) }
        guard case .found(let pattern, _, _, _) = router.match(method: "POST", path: "/v1/devices/batch") else { Issue.record("expected found"); return }
        #expect(pattern == "/v1/devices/batch")
        guard case .methodNotAllowed(let allowed) = router.match(method: "GET", path: "/v1/devices/batch") else { Issue.record("expected 405"); return }
        #expect(allowed == ["POST"])
    }

    @Test func aParameterThePatternDoesNotDeclareIsAnErrorNotAnEmptyString() async throws {
        var router = Router()
        router.add(.get, "/v1/devices/{deviceId}") { _, parameters in HTTPResponse(status: 200, body: Array(try parameters["messageId"].utf8)) }
        guard case .found(_, let handler, _, let parameters) = router.match(method: "GET", path: "/v1/devices/abc") else { Issue.record("expected found"); return }
        await #expect(throws: RouteParameters.Undeclared.self) { try await handler(HTTPRequest(method: "GET", path: "/v1/devices/abc"), parameters) }
    }
}
