import NotibaseCore

/// Drives a sender at load and measures it: `notibase bench apns` uses it against a local peer.
package enum SenderBenchmark {
    /// What a run measured.
    package struct Result: Sendable {
        /// Pushes handed to the sender.
        package var count: Int
        /// Wall time from the first `send` to the last outcome.
        package var elapsed: Duration
        /// Latency of each `send` call (one batch), sorted.
        package var latencies: [Duration]
        /// How many outcomes had each disposition.
        package var dispositions: [SendOutcome.Disposition: Int]
        /// The explanations of outcomes other than `sent`, with their counts.
        package var problems: [String: Int]

        package var pushesPerSecond: Double {
            Double(count) / max(elapsed.seconds, 1e-9)
        }

        /// The latency at `fraction` (0.5 for the median).
        package func latency(at fraction: Double) -> Duration {
            guard !latencies.isEmpty else { return .zero }
            return latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]
        }
    }

    /// Sends `count` pushes made by `makePush`, in `send` calls of `batch` pushes with
    /// `concurrency` calls in flight at once.
    package static func run(sender: any Sender, count: Int, batch: Int, concurrency: Int, makePush: @escaping @Sendable (Int) -> Push) async -> Result {
        let batches = stride(from: 0, to: count, by: batch).map { $0..<min($0 + batch, count) }
        let clock = ContinuousClock()
        let start = clock.now
        var latencies: [Duration] = []
        var dispositions: [SendOutcome.Disposition: Int] = [:]
        var problems: [String: Int] = [:]
        latencies.reserveCapacity(batches.count)
        await withTaskGroup(of: (Duration, [SendOutcome]).self) { group in
            var next = 0
            func launch() {
                guard next < batches.count else { return }
                let range = batches[next]
                next += 1
                group.addTask {
                    let pushes = range.map(makePush)
                    let began = clock.now
                    let outcomes = await sender.send(pushes)
                    return (clock.now - began, outcomes)
                }
            }
            for _ in 0..<concurrency { launch() }
            for await (latency, outcomes) in group {
                latencies.append(latency)
                for outcome in outcomes {
                    dispositions[outcome.disposition, default: 0] += 1
                    if outcome.disposition != .sent { problems[outcome.explanation ?? outcome.disposition.rawValue, default: 0] += 1 }
                }
                launch()
            }
        }
        return Result(count: count, elapsed: clock.now - start, latencies: latencies.sorted(), dispositions: dispositions, problems: problems)
    }

    /// APNs credentials with a freshly generated `.p8`-style key, for peers that do not verify
    /// tokens (nghttpd).
    package static func ephemeralAPNsCredentials(bundleID: String = "com.example.bench") throws -> APNsCredentials {
        let pem = try SigningKey.generate(.es256).privateKeyPEM()
        return APNsCredentials(appID: "bench", bundleID: bundleID, environment: .production,
                               authentication: .token(privateKeyPEM: pem, keyID: "BENCHKEY01", teamID: "BENCHTEAM1"))
    }
}

extension Duration {
    /// The duration in (fractional) seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
