import Foundation
import NotibaseCore
import NotibaseSenders

/// `notibase bench apns`: pushes through the real APNs sender (JWT signing, per-app pool, answer
/// table, outcomes) to a local HTTP/2 TLS peer; pushes per second and latency percentiles.
/// `script/bench-apns` runs it side by side with h2load and aioapns against the same peer.
enum APNsSenderBenchmark {
    static let benchmark = Benchmark(
        name: "apns",
        summary: "pushes per second through the APNs sender to a local HTTP/2 TLS peer (script/bench-apns compares)",
        usage: """
            notibase bench apns --peer URL [--ca FILE] [--count N] [--batch B] [--concurrency C] [--connections K] [--in-flight F] [--token HEX] [--payload FILE]
                  N pushes (default 100000) to the peer at URL (an https:// origin, such as the nghttpd that
                  script/bench-apns starts), B per send() (default 100), C send() calls in flight (default 20),
                  at most K connections (default 2) and F pushes on streams (default 256), all to device token HEX.
                  The payload is FILE's bytes, else the render benchmark's message rendered by the core; the JWT key
                  is made for the run.
            """,
        options: [.value("peer"), .value("ca"), .value("count"), .value("batch"), .value("concurrency"), .value("connections"), .value("in-flight"), .value("token"), .value("payload")],
        run: { arguments, io in try await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        guard let peer = arguments.value("peer") else { throw UsageError("--peer URL is required (an https:// origin)") }
        let count = try arguments.integer("count", default: 100_000, in: 1...10_000_000)
        let batch = try arguments.integer("batch", default: 100, in: 1...10_000)
        let concurrency = try arguments.integer("concurrency", default: 20, in: 1...10_000)
        let connections = try arguments.integer("connections", default: 2, in: 1...64)
        let inFlight = try arguments.integer("in-flight", default: 256, in: 1...100_000)
        let token = arguments.value("token") ?? String(repeating: "a", count: 64)

        var configuration = APNsSenderConfiguration.peer(url: peer, caFile: arguments.value("ca"))
        configuration.maxConnectionsPerApp = connections
        configuration.maxPushesInFlight = inFlight
        let sender = APNsSender(configuration: configuration)
        let credentials = try SenderBenchmark.ephemeralAPNsCredentials()
        let rendered = try APNsRenderer(message: RenderBenchmark.message, topic: credentials.bundleID)
            .render(DeliveryContext(deviceToken: token, messageID: "msg_bench", deliveryID: "00000000-0000-4000-8000-000000000000"))
        let headers = rendered.headers.filter { $0.name != "apns-id" }
        var payload = rendered.body
        if let file = arguments.value("payload") {
            guard let contents = FileManager.default.contents(atPath: file) else { throw UsageError("cannot read --payload \(file)") }
            payload = Array(contents)
        }
        let body = payload
        let makePush: @Sendable (Int) -> Push = { index in
            let hex = String(index, radix: 16)
            let id = "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex.suffix(12)
            let request = APNsRequest(deviceToken: token, headers: headers + [HTTPHeader("apns-id", id)], body: body)
            return Push(deliveryID: id, request: .apns(request), credentials: .apns(credentials))
        }

        _ = await SenderBenchmark.run(sender: sender, count: min(count, 2_000), batch: batch, concurrency: concurrency, makePush: makePush)
        let result = await SenderBenchmark.run(sender: sender, count: count, batch: batch, concurrency: concurrency, makePush: makePush)
        await sender.shutdown()

        let milliseconds = { (duration: Duration) in String(format: "%.2f ms", duration.milliseconds) }
        io.writeOutput("""
            notibase APNs sender: \(count) pushes of \(body.count) bytes, \(batch) per send(), \(concurrency) send() in flight, \(connections) connection(s)
            pushes/s: \(String(format: "%.0f", result.pushesPerSecond))
            elapsed: \(String(format: "%.3f s", result.elapsed.milliseconds / 1000))
            send() latency: p50 \(milliseconds(result.latency(at: 0.5))), p90 \(milliseconds(result.latency(at: 0.9))), p99 \(milliseconds(result.latency(at: 0.99))), max \(milliseconds(result.latencies.last ?? .zero))
            outcomes: \(result.dispositions.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))

            """)
        for (problem, count) in result.problems.sorted(by: { $0.value > $1.value }).prefix(5) {
            io.writeOutput("  \(count)× \(problem)\n")
        }
        return result.dispositions[.sent] == count ? 0 : 1
    }
}

private extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
