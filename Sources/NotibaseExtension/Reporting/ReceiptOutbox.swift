public import Foundation
public import NotibaseCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receipts waiting to reach the server, one file each, in a directory the app and its extension
/// share. The extension writes its render report here before posting it; what it could not post
/// within its budget, the app posts at its next launch. A file is removed once the server has the
/// receipt, so a receipt is sent until it arrives, and the server's idempotency (by receipt ID)
/// makes a repeat harmless. A file being written (or torn by a crash) does not decode and is
/// skipped; one still unreadable after a day is removed.
public struct ReceiptOutbox: Sendable {
    /// The directory, `<shared>/notibase-outbox`.
    public let directory: URL

    /// An outbox in `shared/notibase-outbox`.
    public init(shared: URL) {
        directory = shared.appendingPathComponent("notibase-outbox")
    }

    /// Keeps `receipt` until it is sent. Written with plain POSIX calls: Foundation's file
    /// creation syncs to disk, which costs a millisecond a notification here for a receipt that a
    /// repeat post makes harmless to lose.
    public func add(_ receipt: Receipt) {
        guard let data = try? JSONEncoder().encode(receipt) else { return }
        let path = directory.appendingPathComponent(Self.fileName(for: receipt.id)).path
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        if descriptor < 0 && errno == ENOENT {
            DataProtection.makeDirectory(directory)
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        guard descriptor >= 0 else { return }
        DataProtection.allowWhileLocked(path)
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        // Now and then, keep the outbox bounded: an app that never sends it must not fill the disk.
        if UInt8.random(in: 0...31) == 0 { trim() }
    }

    /// The most receipts kept; beyond it, the oldest are dropped.
    public static let capacity = 500

    /// Drops the oldest files beyond ``capacity``.
    func trim() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path), names.count > Self.capacity else { return }
        let dated = names.map { name -> (String, Date) in
            let path = directory.appendingPathComponent(name).path
            return (path, (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast)
        }
        for (path, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(names.count - Self.capacity) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Forgets `receipt` (it reached the server, or the server will never take it).
    public func remove(_ receipt: Receipt) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(Self.fileName(for: receipt.id)))
    }

    /// The receipts waiting, oldest first.
    public func pending() -> [Receipt] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        let receipts = names.filter { $0.hasSuffix(".receipt.json") }.compactMap { name -> Receipt? in
            let path = directory.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            guard let receipt = try? JSONDecoder().decode(Receipt.self, from: data) else {
                let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
                if modified < Date().addingTimeInterval(-86_400) { try? FileManager.default.removeItem(atPath: path) }
                return nil
            }
            return receipt
        }
        return receipts.sorted { $0.occurredAt < $1.occurredAt }
    }

    /// Posts every waiting receipt; removes those the server accepted (or refused for good).
    /// Returns how many were sent.
    @discardableResult
    public func flush(with poster: any ReceiptPosting, timeout: Duration = .seconds(10), limit: Int = .max) async -> Int {
        var sent = 0
        for receipt in pending().prefix(limit) {
            switch await poster.send(receipt, timeout: timeout) {
            case .accepted, .rejected:
                remove(receipt)
                sent += 1
            case .retryLater:
                return sent  // the server or the network is down: keep the rest for later
            }
        }
        return sent
    }

    static func fileName(for id: String) -> String {
        let safe = id.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" ? String($0) : "_" }.joined()
        return safe + ".receipt.json"
    }
}
