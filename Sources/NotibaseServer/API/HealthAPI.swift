/// `/healthz` (answered on the polling thread: the cheapest route, the benchmark ceiling),
/// `/metrics` (Prometheus text) and `/openapi.json`.
enum HealthAPI {
    static let healthz = HTTPResponse(status: 200, contentType: "application/json", body: Array(#"{"status":"ok"}"#.utf8))

    static func add(to router: inout Router, _ context: APIContext) {
        router.add(.get, "/healthz") { _, _ in healthz }

        router.add(.get, "/metrics") { _, _ in
            let depth = try await context.store.queueDepth()
            let text = context.metrics.render(gauges: [
                (name: "notibase_queue_depth", help: "Deliveries not yet in a final state (queued, retrying or being sent).", value: depth),
            ])
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(text.utf8))
        }

        router.add(.get, "/openapi.json") { _, _ in
            HTTPResponse(status: 200, contentType: "application/json", body: OpenAPIDocument.bytes)
        }
    }
}
