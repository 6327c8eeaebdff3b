import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The boundaries of docs/decisions/0033, read from the sources: a route parses, authorizes and
/// answers, and reaches the store only through a service; a service never sees HTTP; the console
/// is files that read the API; one function wires a node's parts.
@Suite("Service boundaries")
struct ServiceBoundaryTests {
    static let server = TestProducts.packageRoot.appendingPathComponent("Sources/NotibaseServer")

    /// The Swift files under `folder` (relative to the server's sources) and their text.
    static func sources(_ folder: String) throws -> [(name: String, text: String)] {
        let directory = server.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { name in
            (name, try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// `APIContext` declares the store (for the services it builds).
    static let routesStillOnTheStore: Set<String> = ["APIContext.swift"]

    @Test func noRouteCallsTheStoreButThroughAService() throws {
        let routes = try Self.sources("API").filter { !Self.routesStillOnTheStore.contains($0.name) }
        #expect(routes.count >= 10, "the API's files were not found")
        for route in routes {
            #expect(!route.text.contains("context.store"), "\(route.name) calls the store itself; call a service (Services/)")
            #expect(!route.text.contains("context.handoff") && !route.text.contains("FanOut.atOnce"), "\(route.name) drives the delivery loops itself")
        }
    }

    @Test func theConsoleCallsNoStore() throws {
        let console = try Self.sources("Console")
        #expect(!console.isEmpty)
        for file in console {
            #expect(!file.text.contains("store"), "\(file.name): the console reads the API (decision 0028)")
        }
    }

    @Test func servicesSeeNoHTTP() throws {
        let services = try Self.sources("Services")
        #expect(services.count >= 4)
        for service in services {
            for http in ["HTTPRequest", "HTTPResponse", "JSON.response", "JSON.decode", "Router"] {
                #expect(!service.text.contains(http), "\(service.name) uses \(http): a route parses and answers")
            }
        }
    }

    /// Services take and return domain types and throw domain errors (``Refusal``): no route's
    /// type, no ``APIError`` and no HTTP status; nor does Auth/, which services call. The API maps
    /// them (issue 45).
    @Test func servicesAndAuthNameNoAPIType() throws {
        let apiType = try Regex(#"\b(APIError|[A-Z][A-Za-z]*API\.|JSON\.response|status: *[1-5][0-9][0-9])"#)
        let sources = try Self.sources("Services").map { ("Services/" + $0.name, $0.text) } + Self.sources("Auth").map { ("Auth/" + $0.name, $0.text) }
        #expect(sources.count >= 15)
        for (name, text) in sources {
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("///") }
            for line in code where line.contains(apiType) {
                #expect(Bool(false), "\(name) names the API: \(line.trimmingCharacters(in: .whitespaces)); throw a Refusal, take and return domain types")
            }
        }
    }

    /// Production and the tests' harness run the same parts because only one function builds them.
    @Test func oneFunctionWiresANode() throws {
        let built = try Regex(#"(?:^|[^A-Za-z.])(APIContext|FanOut|DeliveryWorker|Handoff)\("#)
        for (name, text) in try Self.sources("") where name != "ServerParts.swift" {
            let parts = text.matches(of: built).map { String(text[$0.range]) }
            #expect(parts.isEmpty, "\(name) builds \(parts): build a node's parts in ServerParts.make")
        }
    }
}
