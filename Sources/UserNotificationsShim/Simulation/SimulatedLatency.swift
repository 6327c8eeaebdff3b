/// How long the simulated system takes to answer a read of the notification center
/// (`getNotificationCategories`, `getDeliveredNotifications`, `requestAuthorization`).
///
/// Answers always arrive later on the system's own thread, never inside the call, and in the order
/// the reads were made. `never` models a pathological system whose reads hang: Apple's API has no
/// error path for them, so a caller that waits must give up on its own.
public struct SimulatedLatency: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        case fixed(Duration)
        case random(ClosedRange<Duration>, seed: UInt64)
        case never
    }

    let kind: Kind

    /// Answer as soon as the system thread gets to it.
    public static let immediate = SimulatedLatency(kind: .fixed(.zero))

    /// Never answer.
    public static let never = SimulatedLatency(kind: .never)

    /// Answer each read after `delay`.
    public static func fixed(_ delay: Duration) -> SimulatedLatency {
        SimulatedLatency(kind: .fixed(max(delay, .zero)))
    }

    /// Answer each read after a delay drawn uniformly from `range`, from a generator seeded with
    /// `seed`: the same seed gives the same delays for the same sequence of reads.
    public static func random(in range: ClosedRange<Duration>, seed: UInt64) -> SimulatedLatency {
        SimulatedLatency(kind: .random(max(range.lowerBound, .zero)...max(range.upperBound, .zero), seed: seed))
    }

    /// The delays of the first `count` reads after this latency is set; `nil` for `never`.
    public func delays(_ count: Int) -> [Duration]? {
        var sampler = Sampler(self)
        var delays: [Duration] = []
        for _ in 0..<max(count, 0) {
            guard let delay = sampler.next() else { return nil }
            delays.append(delay)
        }
        return delays
    }

    /// A readable form, such as `fixed(0.1 seconds)`.
    public var description: String {
        switch kind {
        case .fixed(let delay): "fixed(\(delay))"
        case .random(let range, let seed): "random(\(range.lowerBound)...\(range.upperBound), seed: \(seed))"
        case .never: "never"
        }
    }

    /// Draws the successive delays of one latency setting.
    struct Sampler {
        private let kind: Kind
        private var state: UInt64

        init(_ latency: SimulatedLatency) {
            kind = latency.kind
            if case .random(_, let seed) = latency.kind { state = seed } else { state = 0 }
        }

        /// The next read's delay; `nil` when reads never answer.
        mutating func next() -> Duration? {
            switch kind {
            case .fixed(let delay):
                return delay
            case .never:
                return nil
            case .random(let range, _):
                let unit = Double(nextRandom() >> 11) / Double(1 << 53)
                let span = range.upperBound - range.lowerBound
                return range.lowerBound + span * unit
            }
        }

        // SplitMix64: small, fast, and fully determined by the seed.
        private mutating func nextRandom() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
