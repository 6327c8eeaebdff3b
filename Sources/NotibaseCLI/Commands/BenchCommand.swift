import FoundationEssentials
import NotibaseCore
import NotibaseSenders

/// `notibase bench apns`: sends pushes through the real APNs sender to a local HTTP/2 TLS peer
/// and prints pushes per second and latency percentiles.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "measure the APNs sender against a local HTTP/2 TLS peer (bench apns)"
    static let usage = """
        notibase bench apns --peer URL [--ca FILE] [--count N] [--batch B] [--concurrency C] [--connections K] [--in-flight F] [--token HEX]

          Sends N pushes (default 100000) through the APNs sender to the peer at URL (an https://
          origin such as a local nghttpd; script/bench-apns starts one), B pushes per send() call
          (default 100) with C calls in flight (default 20), over at most K connections (default 2)
          with at most F pushes on streams at once (default 256),
          all to device token HEX. Prints pushes per second, latency percentiles per send() call,
          and the outcomes. The JWT is signed with a key made for the run.
        """
    static let options: [OptionSpec] = [
        .value("peer"), .value("ca"), .value("count"), .value("batch"), .value("concurrency"), .value("connections"), .value("in-flight"), .value("token"),
    ]

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        try arguments.expectPositional(atMost: 1)
        guard arguments.positional.first == "apns" else { throw UsageError("say what to measure: notibase bench apns") }
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
        let body = Array(#"{"aps":{"alert":{"title":"Benchmark","body":"Hello from Notibase"},"mutable-content":1},"nb_id":"bench"}"#.utf8)
        let makePush: @Sendable (Int) -> Push = { index in
            let id = "00000000-0000-4000-8000-" + String(String(index, radix: 16).suffix(12)).leftPadded(to: 12)
            let request = APNsRequest(deviceToken: token, headers: [
                HTTPHeader("apns-push-type", "alert"), HTTPHeader("apns-priority", "10"),
                HTTPHeader("apns-topic", credentials.bundleID), HTTPHeader("apns-id", id),
            ], body: body)
            return Push(deliveryID: id, request: .apns(request), credentials: .apns(credentials))
        }

        _ = await SenderBenchmark.run(sender: sender, count: min(count, 2_000), batch: batch, concurrency: concurrency, makePush: makePush)
        let result = await SenderBenchmark.run(sender: sender, count: count, batch: batch, concurrency: concurrency, makePush: makePush)
        await sender.shutdown()

        let milliseconds = { (duration: Duration) in String(format: "%.2f ms", duration.milliseconds) }
        io.writeOutput("""
            notibase APNs sender: \(count) pushes, \(batch) per send(), \(concurrency) send() in flight, \(connections) connection(s)
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

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

private extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
