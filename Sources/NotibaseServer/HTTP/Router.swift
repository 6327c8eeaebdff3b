/// Path parameters matched by a route pattern such as `/v1/devices/{deviceId}`.
public struct RouteParameters: Sendable {
    var values: [String: String] = [:]

    /// The value of a parameter the pattern declares.
    public subscript(_ name: String) -> String { values[name] ?? "" }
}

/// Matches a method and path to a handler. Patterns are literal segments and `{name}` parameters.
public struct Router: Sendable {
    /// A request handler; what it throws becomes an error response.
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) async throws -> HTTPResponse

    private struct Route: Sendable {
        var method: String
        var pattern: String
        var segments: [Substring]
        var literals: Int
        var handler: Handler
    }

    /// What a lookup found.
    public enum Match: Sendable {
        /// A handler, its pattern (for metrics and logs) and the parameters.
        case found(pattern: String, handler: Handler, parameters: RouteParameters)
        /// The path exists but not with this method.
        case methodNotAllowed(allowed: [String])
        /// No route has this path.
        case notFound
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds a route.
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        let segments = Self.split(pattern)
        routes.append(Route(method: method, pattern: pattern, segments: segments, literals: segments.filter { $0.first != "{" }.count, handler: handler))
    }

    /// The route for `method` and `path`. When several patterns match, the one with the most
    /// literal segments wins (`/v1/devices/batch` over `/v1/devices/{deviceId}`), and only its
    /// methods are allowed.
    public func match(method: String, path: String) -> Match {
        let segments = Self.split(path)
        var best: [(route: Route, parameters: RouteParameters)] = []
        var bestLiterals = -1
        for route in routes where route.segments.count == segments.count && route.literals >= bestLiterals {
            guard let parameters = Self.bind(route.segments, to: segments) else { continue }
            let literals = route.literals
            if literals > bestLiterals {
                best = []
                bestLiterals = literals
            }
            if literals == bestLiterals { best.append((route, parameters)) }
        }
        if let found = best.first(where: { $0.route.method == method }) {
            return .found(pattern: found.route.pattern, handler: found.route.handler, parameters: found.parameters)
        }
        return best.isEmpty ? .notFound : .methodNotAllowed(allowed: best.map(\.route.method))
    }

    /// Every route's method and pattern, in the order they were added.
    public var table: [(method: String, pattern: String)] {
        routes.map { ($0.method, $0.pattern) }
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func bind(_ pattern: [Substring], to path: [Substring]) -> RouteParameters? {
        guard pattern.count == path.count else { return nil }
        var parameters = RouteParameters()
        for (expected, actual) in zip(pattern, path) {
            if expected.first == "{" && expected.last == "}" {
                parameters.values[String(expected.dropFirst().dropLast())] = String(actual)
            } else if expected != actual {
                return nil
            }
        }
        return parameters
    }
}
