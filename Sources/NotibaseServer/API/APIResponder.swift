import NotibaseCore

/// The API: routes every request, turns thrown errors into JSON answers, and records metrics and
/// an access log line for each.
struct APIResponder: HTTPResponder {
    let router: Router
    let context: APIContext
    let accessLog: Bool

    init(context: APIContext, accessLog: Bool) {
        var router = Router()
        AppsAPI.add(to: &router, context)
        DevicesAPI.add(to: &router, context)
        MessagesAPI.add(to: &router, context)
        DeliveriesAPI.add(to: &router, context)
        ReceiptsAPI.add(to: &router, context)
        HealthAPI.add(to: &router, context)
        self.router = router
        self.context = context
        self.accessLog = accessLog
    }

    func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        guard request.path == "/healthz", request.method == "GET" else { return nil }
        var response = HealthAPI.healthz
        finish(&response, request: request, route: "/healthz", started: .now)
        return response
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let started = ContinuousClock.now
        var route = "unmatched"
        var response: HTTPResponse
        switch router.match(method: request.method, path: request.path) {
        case .found(let pattern, let handler, let parameters):
            route = pattern
            do {
                response = try await handler(request, parameters)
            } catch let error as APIError {
                response = error.response
            } catch {
                context.logger.error("request failed", ["requestId": .string(request.id), "route": .string(route), "error": .string("\(error)")])
                response = APIError(status: 500, code: "internal_error", message: "the server failed to answer; the request ID is in the log", field: nil).response
            }
        case .methodNotAllowed(let allowed):
            response = APIError(status: 405, code: "method_not_allowed", message: "\(request.path) accepts \(allowed.joined(separator: ", "))", field: nil).response
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
        case .notFound:
            response = APIError(status: 404, code: "not_found", message: "there is no \(request.path); see /openapi.json for the API", field: nil).response
        }
        finish(&response, request: request, route: route, started: started)
        return response
    }

    func bodyTooLarge(_ request: HTTPRequest, limit: Int) -> HTTPResponse {
        var response = APIError(status: 413, code: "body_too_large", message: "the body is over the limit of \(limit) bytes; send less (or batches)", field: nil).response
        finish(&response, request: request, route: "too_large", started: .now)
        return response
    }

    private func finish(_ response: inout HTTPResponse, request: HTTPRequest, route: String, started: ContinuousClock.Instant) {
        response.headers.append(("X-Request-Id", request.id))
        let seconds = (ContinuousClock.now - started).seconds
        context.metrics.recordRequest(route: route, method: request.method, status: response.status, seconds: seconds)
        if accessLog {
            context.logger.info("request", [
                "requestId": .string(request.id), "method": .string(request.method), "route": .string(route),
                "status": .int(response.status), "ms": .double((seconds * 1000 * 100).rounded() / 100),
            ])
        }
    }
}
