import NotibaseDomain
/// Who gets a connection of ``ConnectionLanes``, without I/O: a caller that names its app (the
/// key) may hold every lane but one, and one that names none (the node's own loops) may hold any;
/// a lane given back goes to the oldest waiter allowed one. So one app's expensive reads (its
/// audience counted over its whole device table, again and again) queue behind each other, and
/// another app's read finds a lane free, instead of waiting behind all of them in arrival order.
package struct LaneTurns<Lane, Waiter> {
    private var free: [Lane]
    private var waiting: [(key: String?, waiter: Waiter)] = []
    /// Lanes held by each app now.
    private var held: [String: Int] = [:]
    /// The most lanes one app holds at once.
    package let perApp: Int

    package init(lanes: [Lane]) {
        free = lanes
        perApp = max(1, lanes.count - 1)
    }

    /// A lane for `key` now, or nil when `waiter` waits for ``giveBack(_:key:)`` to hand it one.
    package mutating func borrow(key: String?, waiter: Waiter) -> Lane? {
        guard allows(key), let lane = free.popLast() else {
            waiting.append((key, waiter))
            return nil
        }
        take(key)
        return lane
    }

    /// `lane` back from `key`'s caller: the oldest waiter allowed it now, and the lane, or nil
    /// when it stays free.
    package mutating func giveBack(_ lane: Lane, key: String?) -> (waiter: Waiter, lane: Lane)? {
        if let key {
            // An app that holds none is forgotten: the table is as large as the apps reading now.
            let left = (held[key] ?? 1) - 1
            held[key] = left > 0 ? left : nil
        }
        guard let index = waiting.firstIndex(where: { allows($0.key) }) else {
            free.append(lane)
            return nil
        }
        let next = waiting.remove(at: index)
        take(next.key)
        return (next.waiter, lane)
    }

    /// How many callers wait for a lane.
    package var waitingCount: Int { waiting.count }

    private func allows(_ key: String?) -> Bool {
        key.map { (held[$0] ?? 0) < perApp } ?? true
    }

    private mutating func take(_ key: String?) {
        if let key { held[key, default: 0] += 1 }
    }
}
