import NotibaseCore
import NotibaseDomain
package import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices

/// The API: routes every request, turns thrown errors into JSON answers, and records metrics and
/// an access log line for each.
///
/// On the HTTP server's polling thread it answers `/healthz`, unknown routes and methods, and what
/// a route's quick handler can (device registration: everything but the write, which is waited
/// for by callback); everything else runs its handler in a task.
package struct APIResponder: HTTPResponder {
    /// The priority of a request's work: the fan-out's (``Server/requestPriority`` says why).
    package static let requestPriority = TaskPriority.utility
    package let router: Router
    package let context: APIContext
    package let accessLog: Bool
    /// Whether quick handlers run; without them every route's handler runs in a task (the
    /// reference the quick paths are tested against).
    package let quickHandlers: Bool
    /// `GET /healthz`'s answer, made once.
    package let healthz: HTTPResponse

    package init(context: APIContext, accessLog: Bool, quickHandlers: Bool = true) {
        var router = Router()
        AppsAPI.add(to: &router, context)
        DevicesAPI.add(to: &router, context)
        UsersAPI.add(to: &router, context)
        MessagesAPI.add(to: &router, context)
        DeliveriesAPI.add(to: &router, context)
        ReceiptsAPI.add(to: &router, context)
        HealthAPI.add(to: &router, context)
        PreviewAPI.add(to: &router, context)
        FunnelAPI.add(to: &router, context)
        WebhooksAPI.add(to: &router, context)
        LiveActivitiesAPI.add(to: &router, context)
        self.router = router
        self.context = context
        self.accessLog = accessLog
        self.quickHandlers = quickHandlers
        healthz = HealthAPI.healthz(trial: context.trial)
    }

    package func answer(_ request: HTTPRequest) -> HTTPAnswer {
        if request.path == "/healthz", request.method == "GET" {
            // The cheapest route, before any routing: the benchmarks' ceiling.
            return .now(finish(healthz, Exchange(request, route: "/healthz")))
        }
        if request.path == "/", Console.isBrowserVisit(request) {
            // A browser opened the server's address: the console is what a person wants there.
            return .now(finish(Console.rootRedirect, Exchange(request, route: "/")))
        }
        if Console.serves(request.path) {
            // The web console's static files: not API routes, so not in the OpenAPI document.
            return .now(finish(Console.response(to: request), Exchange(request, route: "/console")))
        }
        switch router.match(method: request.method, path: request.path) {
        case .found(let route, let handler, let quick, let parameters):
            // What the answer records, without the request: a response made on another thread
            // then frees nothing the polling thread allocated.
            let exchange = Exchange(request, route: route)
            if quickHandlers, let quick {
                do {
                    switch try quick(request, parameters) {
                    case .response(let response)?:
                        return .now(finish(response, exchange))
                    case .callback(let start)?:
                        return .later { reply in
                            start { result in reply.send(finish(response(result, exchange), exchange)) }
                        }
                    case nil:
                        break
                    }
                } catch {
                    return .now(finish(response(.failure(error), exchange), exchange))
                }
            }
            return .later { reply in
                Task(priority: Self.requestPriority) {
                    let result: Result<HTTPResponse, any Error>
                    do {
                        result = .success(try await handler(request, parameters))
                    } catch {
                        result = .failure(error)
                    }
                    reply.send(finish(response(result, exchange), exchange))
                }
            }
        case .methodNotAllowed(let allowed):
            var response = APIError(status: 405, code: "method_not_allowed", message: "\(request.path) accepts \(allowed.joined(separator: ", "))", field: nil).response
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return .now(finish(response, Exchange(request, route: "unmatched")))
        case .notFound:
            let response = APIError(status: 404, code: "not_found", message: "there is no \(request.path); see /openapi.json for the API", field: nil).response
            return .now(finish(response, Exchange(request, route: "unmatched")))
        }
    }

    /// A body is read only for a route that exists and, under `/v1/`, with a key that does: a
    /// key not resolved before is looked up (the connection waits), and the handler then finds it
    /// cached. Whether the key's kind may use the route is the handler's to say.
    package func screen(_ head: HTTPRequest) -> HTTPScreening {
        guard case .found(let route, _, _, _) = router.match(method: head.method, path: head.path) else {
            if case .now(let response) = answer(head) { return .refuse(response) }
            return .proceed
        }
        guard head.path.hasPrefix("/v1/") else { return .proceed }
        let exchange = Exchange(head, route: route)
        let kinds = Set(KeyKind.allCases)
        do {
            if try context.auth.cachedCaller(authorization: head.header("authorization"), allowed: kinds) != nil { return .proceed }
        } catch {
            return .refuse(finish(response(.failure(error), exchange), exchange))
        }
        return .later { done in
            Task(priority: Self.requestPriority) {
                do {
                    _ = try await context.auth.authenticate(authorization: head.header("authorization"), allowed: kinds)
                    done(nil)
                } catch {
                    done(finish(response(.failure(error), exchange), exchange))
                }
            }
        }
    }

    package func refuse(_ request: HTTPRequest, _ refusal: HTTPRefusal) -> HTTPResponse {
        var response = APIError(status: refusal.status, code: refusal.code, message: refusal.message, field: nil).response
        response.headers.append(("Retry-After", String(refusal.retryAfter)))
        return finish(response, Exchange(request, route: "refused"))
    }

    package func bodyTooLarge(_ request: HTTPRequest, limit: Int) -> HTTPResponse {
        let response = APIError(status: 413, code: "body_too_large", message: "the body is over the limit of \(limit) bytes; send less (or batches)", field: nil).response
        return finish(response, Exchange(request, route: "too_large"))
    }

    package func badRequest(_ request: HTTPRequest, _ problem: HTTPRequestProblem) -> HTTPResponse {
        let response = APIError(status: 400, code: problem.code, message: problem.message, field: problem.field).response
        return finish(response, Exchange(request, route: "rejected"))
    }

    /// A request as its answer records it: the request ID, the method, the route pattern, and
    /// when it was complete.
    private struct Exchange: Sendable {
        package let requestID: String
        /// The client's own `X-Request-Id`, sanitized: logged beside ``requestID``.
        package let clientRequestID: String?
        package let method: String
        package let route: String
        package let started = ContinuousClock.now

        package init(_ request: HTTPRequest, route: String) {
            requestID = request.id
            clientRequestID = request.clientRequestID
            method = request.method
            self.route = route
        }

        /// `fields` with the request's IDs and route, for its log lines.
        package func logFields(_ fields: [String: Logger.Value]) -> [String: Logger.Value] {
            var fields = fields
            fields["requestId"] = .string(requestID)
            fields["route"] = .string(route)
            if let clientRequestID { fields["clientRequestId"] = .string(clientRequestID) }
            return fields
        }
    }

    /// Headers on every answer that does not set its own: browsers must not guess another content
    /// type than the one sent, and nothing may keep an answer (some show keys). The console's files
    /// keep their own `Cache-Control: no-cache`.
    package static let everyAnswer: [(name: String, value: String)] = [("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-store")]

    /// A handler's response, or the answer to what it threw.
    private func response(_ result: Result<HTTPResponse, any Error>, _ exchange: Exchange) -> HTTPResponse {
        switch result {
        case .success(let response):
            return response
        case .failure(let error as APIError):
            return error.response
        case .failure(let refusal as Refusal):
            return APIError(refusal).response
        case .failure(let error as StorageError) where error.kind == .unavailable:
            context.logger.warning("database unavailable", exchange.logFields(["error": .string("\(error)")]))
            var response = APIError(status: 503, code: "unavailable", message: "the database is busy or unreachable; retry after the Retry-After seconds", field: nil).response
            response.headers.append(("Retry-After", "1"))
            return response
        case .failure(let error):
            context.logger.error("request failed", exchange.logFields(["error": .string("\(error)")]))
            return APIError(status: 500, code: "internal_error", message: "the server failed to answer; the request ID is in the log", field: nil).response
        }
    }

    /// Tags the response with the request ID, and records its metrics and access log line.
    private func finish(_ response: HTTPResponse, _ exchange: Exchange) -> HTTPResponse {
        var response = response
        response.headers.append(("X-Request-Id", exchange.requestID))
        for header in Self.everyAnswer where !response.headers.contains(where: { $0.name.lowercased() == header.name.lowercased() }) {
            response.headers.append(header)
        }
        let seconds = (ContinuousClock.now - exchange.started).seconds
        context.metrics.recordRequest(route: exchange.route, method: exchange.method, status: response.status, seconds: seconds)
        if accessLog {
            context.logger.info("request", exchange.logFields([
                "method": .string(exchange.method), "status": .int(response.status), "ms": .double((seconds * 1000 * 100).rounded() / 100),
            ]))
        }
        return response
    }
}
