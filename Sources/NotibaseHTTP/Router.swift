import NotibaseDomain
/// The methods the API routes.
package enum HTTPMethod: String, Sendable, Hashable {
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}

/// Path parameters matched by a route pattern such as `/v1/devices/{deviceId}`.
package struct RouteParameters: Sendable {
    package var values: [String: String] = [:]

    /// A name the route's pattern does not declare: a mistake in the handler, answered as a 500.
    package struct Undeclared: Error, CustomStringConvertible {
        package var name: String
        package var description: String { "the route has no parameter {\(name)}" }
    }

    /// The value of a parameter the pattern declares; throws for any other name.
    package subscript(_ name: String) -> String {
        get throws(Undeclared) {
            guard let value = values[name] else { throw Undeclared(name: name) }
            return value
        }
    }
}

/// Matches a method and path to a handler. Patterns are literal segments and `{name}` parameters.
package struct Router: Sendable {
    /// A request handler; what it throws becomes an error response.
    package typealias Handler = @Sendable (HTTPRequest, RouteParameters) async throws -> HTTPResponse

    /// A handler that runs on the HTTP server's polling thread, before any task, for a hot route:
    /// it must not block. It returns nil when the request needs the route's ``Handler`` (a key to
    /// look up, an unusual body); what it throws becomes an error response.
    package typealias QuickHandler = @Sendable (HTTPRequest, RouteParameters) throws -> QuickAnswer?

    /// What a ``QuickHandler`` found.
    package enum QuickAnswer: Sendable {
        /// The response, made at once.
        case response(HTTPResponse)
        /// Work to wait for without a task: `start` runs it and calls `done` once, from any thread.
        case callback(_ start: @Sendable (_ done: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) -> Void)
    }

    private struct Route: Sendable {
        package var method: HTTPMethod
        package var pattern: String
        package var segments: [Substring]
        package var literals: Int
        package var handler: Handler
        package var quick: QuickHandler?
    }

    /// What a lookup found.
    package enum Match: Sendable {
        /// A handler (and its quick handler, if it has one), its pattern (for metrics and logs) and
        /// the parameters.
        case found(pattern: String, handler: Handler, quick: QuickHandler?, parameters: RouteParameters)
        /// The path exists but not with this method.
        case methodNotAllowed(allowed: [String])
        /// No route has this path.
        case notFound
    }

    private var routes: [Route] = []
    /// The routes without parameters by their path as written in the pattern, in the order they
    /// were added: a request for exactly that path needs no segment matching.
    private var literalRoutes: [String: [Int]] = [:]

    package init() {}

    /// Adds a route.
    package mutating func add(_ method: HTTPMethod, _ pattern: String, quick: QuickHandler? = nil, _ handler: @escaping Handler) {
        let segments = Self.split(pattern)
        let literals = segments.filter { !Self.isParameter($0) }.count
        if literals == segments.count {
            literalRoutes["/" + segments.joined(separator: "/"), default: []].append(routes.count)
        }
        routes.append(Route(method: method, pattern: pattern, segments: segments, literals: literals, handler: handler, quick: quick))
    }

    /// The route for `method` and `path`. When several patterns match, the one with the most
    /// literal segments wins (`/v1/devices/batch` over `/v1/devices/{deviceId}`), and only its
    /// methods are allowed.
    package func match(method: String, path: String) -> Match {
        if let candidates = literalRoutes[path] {
            // Only patterns with as many segments, all literal, can match as well as these.
            guard let found = candidates.first(where: { routes[$0].method.rawValue == method }) else {
                return .methodNotAllowed(allowed: candidates.map { routes[$0].method.rawValue })
            }
            let route = routes[found]
            return .found(pattern: route.pattern, handler: route.handler, quick: route.quick, parameters: RouteParameters())
        }
        let segments = Self.split(path)
        // One pass without copying routes: the most literal matching patterns, and the first of
        // them with this method.
        var bestLiterals = -1
        var found: Int?
        for index in routes.indices {
            let literals = routes[index].literals
            guard literals >= bestLiterals, Self.matches(routes[index].segments, segments) else { continue }
            if literals > bestLiterals {
                bestLiterals = literals
                found = nil
            }
            if found == nil && routes[index].method.rawValue == method { found = index }
        }
        if let found {
            let route = routes[found]
            return .found(pattern: route.pattern, handler: route.handler, quick: route.quick, parameters: Self.bind(route.segments, to: segments))
        }
        guard bestLiterals >= 0 else { return .notFound }
        let allowed = routes.filter { $0.literals == bestLiterals && Self.matches($0.segments, segments) }.map(\.method.rawValue)
        return .methodNotAllowed(allowed: allowed)
    }

    /// Every route's method and pattern, in the order they were added.
    package var table: [(method: String, pattern: String)] {
        routes.map { ($0.method.rawValue, $0.pattern) }
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func isParameter(_ segment: Substring) -> Bool {
        segment.first == "{" && segment.last == "}"
    }

    private static func matches(_ pattern: [Substring], _ path: [Substring]) -> Bool {
        guard pattern.count == path.count else { return false }
        for index in pattern.indices where !isParameter(pattern[index]) && pattern[index] != path[index] {
            return false
        }
        return true
    }

    private static func bind(_ pattern: [Substring], to path: [Substring]) -> RouteParameters {
        var parameters = RouteParameters()
        for (expected, actual) in zip(pattern, path) where isParameter(expected) {
            parameters.values[String(expected.dropFirst().dropLast())] = String(actual)
        }
        return parameters
    }
}
