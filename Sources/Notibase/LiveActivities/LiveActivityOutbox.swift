import Foundation
import NotibaseCore
import NotibaseExtension

/// The Live Activity reports waiting to be sent, in order, on disk so none is lost offline or
/// across launches. A token report replaces a queued one it makes stale (the same type's
/// push-to-start token, the same activity's update token); `ended` and `dismissed` are kept once.
/// Reports are queued without the device token: the one the server accepted is added when sent.
final class LiveActivityOutbox: Sendable {
    struct Queued: Codable, Equatable {
        var id: UUID
        var report: LiveActivityReport
    }

    private let file: URL
    private let queue: Locked<[Queued]>

    init(directory: URL) {
        file = directory.appendingPathComponent("live-activity-reports.json")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let saved = FileManager.default.contents(atPath: file.path).flatMap { try? JSONDecoder().decode([Queued].self, from: $0) }
        queue = Locked(saved ?? [])
    }

    /// Queues `report`; false when it adds nothing (the same report is already queued).
    @discardableResult
    func add(_ report: LiveActivityReport) -> Bool {
        let file = file
        return queue.withLock { queue in
            if queue.contains(where: { $0.report == report }) { return false }
            queue.removeAll { Self.supersedes(report, $0.report) }
            queue.append(Queued(id: UUID(), report: report))
            Self.save(queue, to: file)
            return true
        }
    }

    var pending: [Queued] { queue.withLock { $0 } }

    /// The server took it (or never will).
    func remove(_ id: UUID) {
        let file = file
        queue.withLock { queue in
            queue.removeAll { $0.id == id }
            Self.save(queue, to: file)
        }
    }

    private static func supersedes(_ new: LiveActivityReport, _ old: LiveActivityReport) -> Bool {
        guard new.kind == old.kind else { return false }
        switch new.kind {
        case .pushToStartToken: return new.attributesType == old.attributesType
        case .updateToken: return new.activityId == old.activityId
        case .ended, .dismissed: return false
        }
    }

    private static func save(_ queue: [Queued], to file: URL) {
        guard let data = try? JSONEncoder().encode(queue) else { return }
        try? data.write(to: file, options: .atomic)
    }
}
