/// Spreads one message's deliveries at its rate ("at most N a minute"), evenly: the k-th delivery
/// of a lane goes out at the lane's start + k × (60 s / N). The plan is a small value stored with
/// the message and advanced by each fan-out batch in the same transaction as its deliveries and
/// cursor, so the spacing holds across batches, restarts and nodes (one node fans out a message at
/// a time).
///
/// A lane is the deliveries due from one moment: the send time, or, with local-time delivery or
/// quiet hours, each moment the devices' time zones give (09:00 in Paris and Berlin are one
/// moment, in London another). Lanes are laid end to end in time, each sized by how many devices
/// were expected at its moment, so together they never exceed the rate either. A delivery whose
/// moment has no lane, or whose lane is full (devices that registered or changed time zone after
/// the count), goes after the last lane.
package struct RatePlan: Sendable, Hashable, Codable {
    /// Deliveries a minute.
    package var perMinute: Int
    /// By moment, in time order.
    package var lanes: [Lane]
    /// Deliveries placed after the last lane.
    package var overflow = 0

    package struct Lane: Sendable, Hashable, Codable {
        /// The moment its deliveries are due from (ms).
        package var moment: Int
        /// How many were expected; nil for the one lane of a message sent at one moment.
        package var expected: Int?
        /// When its first delivery goes (ms): its moment, or the end of the lane before.
        package var start: Int
        /// How many it placed.
        package var placed = 0
    }

    /// One lane, without end, for deliveries all due from `moment`, starting no sooner than
    /// `notBefore`.
    package init(perMinute: Int, moment: Int, notBefore: Int) {
        self.perMinute = perMinute
        lanes = [Lane(moment: moment, expected: nil, start: max(moment, notBefore))]
    }

    /// Lanes for `expected` deliveries at each moment, none starting before `notBefore`.
    package init(perMinute: Int, expected: [Int: Int], notBefore: Int) {
        self.perMinute = perMinute
        lanes = []
        var free = notBefore
        for (moment, count) in expected.sorted(by: { $0.key < $1.key }) where count > 0 {
            let start = max(moment, free)
            lanes.append(Lane(moment: moment, expected: count, start: start))
            free = start + Self.offset(count, perMinute)
        }
    }

    /// Milliseconds from a lane's start to its k-th delivery.
    package static func offset(_ k: Int, _ perMinute: Int) -> Int { k * 60_000 / perMinute }

    /// When the next delivery due from `moment` goes out (ms), and placing it.
    package mutating func place(_ moment: Int) -> Int {
        if let index = lanes.firstIndex(where: { $0.moment == moment }), lanes[index].placed < (lanes[index].expected ?? .max) {
            defer { lanes[index].placed += 1 }
            return lanes[index].start + Self.offset(lanes[index].placed, perMinute)
        }
        let end = lanes.map { $0.start + Self.offset($0.expected ?? $0.placed, perMinute) }.max() ?? moment
        defer { overflow += 1 }
        return max(moment, end + Self.offset(overflow, perMinute))
    }
}
