import Foundation
import Testing
import NotibaseTestSupport
@testable import NotibaseServerTestSupport

/// The boundaries of docs/decisions/0033 that the targets' graph cannot hold, read from the
/// sources: a route reaches the store only through a service (the API and the wiring share
/// NotibaseServer, which sees the store); a service never reads an HTTP request (the
/// authenticator beside it in NotibaseServices does); the console is files that read the API; one
/// function wires a node's parts. What the graph holds (no API type below the API, no store in the
/// HTTP server) is the compiler's (Package.swift, docs/architecture.md "Modules").
@Suite("Service boundaries")
struct ServiceBoundaryTests {
    static let sourcesRoot = TestProducts.packageRoot.appendingPathComponent("Sources")

    /// The Swift files under `folder` of `target`'s sources and their text.
    static func sources(_ folder: String, in target: String = "NotibaseServer") throws -> [(name: String, text: String)] {
        let directory = sourcesRoot.appendingPathComponent(target).appendingPathComponent(folder)
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
        let services = try Self.sources("Services", in: "NotibaseServices")
        #expect(services.count >= 4)
        for service in services {
            for http in ["HTTPRequest", "HTTPResponse", "JSON.response", "JSON.decode", "Router"] {
                #expect(!service.text.contains(http), "\(service.name) uses \(http): a route parses and answers")
            }
        }
    }

    /// Production and the tests' harness run the same parts because only one function builds them.
    @Test func oneFunctionWiresANode() throws {
        let built = try Regex(#"(?:^|[^A-Za-z.])(APIContext|FanOut|DeliveryWorker|Handoff)\("#)
        for (name, text) in try Self.sources("") + Self.sources("", in: "NotibaseServices") where name != "ServerParts.swift" {
            let parts = text.matches(of: built).map { String(text[$0.range]) }
            #expect(parts.isEmpty, "\(name) builds \(parts): build a node's parts in ServerParts.make")
        }
    }
}
