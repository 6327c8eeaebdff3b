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
        routes.append(Route(method: method, pattern: pattern, segments: Self.split(pattern), handler: handler))
    }

    /// The route for `method` and `path`.
    public func match(method: String, path: String) -> Match {
        let segments = Self.split(path)
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Self.bind(route.segments, to: segments) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .found(pattern: route.pattern, handler: route.handler, parameters: parameters)
            }
            allowed.append(route.method)
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
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
