import NotibaseCore

/// The API: routes every request, turns thrown errors into JSON answers, and records metrics and
/// an access log line for each.
///
/// On the HTTP server's polling thread it answers `/healthz`, unknown routes and methods, and what
/// a route's quick handler can (device registration: everything but the write, which is waited
/// for by callback); everything else runs its handler in a task.
struct APIResponder: HTTPResponder {
    let router: Router
    let context: APIContext
    let accessLog: Bool
    /// Whether quick handlers run; without them every route's handler runs in a task (the
    /// reference the quick paths are tested against).
    let quickHandlers: Bool

    init(context: APIContext, accessLog: Bool, quickHandlers: Bool = true) {
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
        self.quickHandlers = quickHandlers
    }

    func answer(_ request: HTTPRequest) -> HTTPAnswer {
        let started = ContinuousClock.now
        if request.path == "/healthz", request.method == "GET" {
            // The cheapest route, before any routing: the benchmarks' ceiling.
            return .now(finish(HealthAPI.healthz, request: request, route: "/healthz", started: started))
        }
        switch router.match(method: request.method, path: request.path) {
        case .found(let route, let handler, let quick, let parameters):
            if quickHandlers, let quick {
                do {
                    switch try quick(request, parameters) {
                    case .response(let response)?:
                        return .now(finish(response, request: request, route: route, started: started))
                    case .callback(let start)?:
                        return .later { reply in
                            start { result in reply.send(finish(response(result, request: request, route: route), request: request, route: route, started: started)) }
                        }
                    case nil:
                        break
                    }
                } catch {
                    return .now(finish(response(.failure(error), request: request, route: route), request: request, route: route, started: started))
                }
            }
            return .later { reply in
                Task {
                    let result: Result<HTTPResponse, any Error>
                    do {
                        result = .success(try await handler(request, parameters))
                    } catch {
                        result = .failure(error)
                    }
                    reply.send(finish(response(result, request: request, route: route), request: request, route: route, started: started))
                }
            }
        case .methodNotAllowed(let allowed):
            var response = APIError(status: 405, code: "method_not_allowed", message: "\(request.path) accepts \(allowed.joined(separator: ", "))", field: nil).response
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return .now(finish(response, request: request, route: "unmatched", started: started))
        case .notFound:
            let response = APIError(status: 404, code: "not_found", message: "there is no \(request.path); see /openapi.json for the API", field: nil).response
            return .now(finish(response, request: request, route: "unmatched", started: started))
        }
    }

    func bodyTooLarge(_ request: HTTPRequest, limit: Int) -> HTTPResponse {
        let response = APIError(status: 413, code: "body_too_large", message: "the body is over the limit of \(limit) bytes; send less (or batches)", field: nil).response
        return finish(response, request: request, route: "too_large", started: .now)
    }

    /// A handler's response, or the answer to what it threw.
    private func response(_ result: Result<HTTPResponse, any Error>, request: HTTPRequest, route: String) -> HTTPResponse {
        switch result {
        case .success(let response):
            return response
        case .failure(let error as APIError):
            return error.response
        case .failure(let error):
            context.logger.error("request failed", ["requestId": .string(request.id), "route": .string(route), "error": .string("\(error)")])
            return APIError(status: 500, code: "internal_error", message: "the server failed to answer; the request ID is in the log", field: nil).response
        }
    }

    /// Tags the response with the request ID, and records its metrics and access log line.
    private func finish(_ response: HTTPResponse, request: HTTPRequest, route: String, started: ContinuousClock.Instant) -> HTTPResponse {
        var response = response
        response.headers.append(("X-Request-Id", request.id))
        let seconds = (ContinuousClock.now - started).seconds
        context.metrics.recordRequest(route: route, method: request.method, status: response.status, seconds: seconds)
        if accessLog {
            context.logger.info("request", [
                "requestId": .string(request.id), "method": .string(request.method), "route": .string(route),
                "status": .int(response.status), "ms": .double((seconds * 1000 * 100).rounded() / 100),
            ])
        }
        return response
    }
}
