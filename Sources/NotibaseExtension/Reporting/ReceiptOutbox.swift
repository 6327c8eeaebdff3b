import Foundation
import NotibaseCore

/// Receipts waiting to reach the server, one file each, in a directory the app and its extension
/// share. The extension writes its render report here before posting it; what it could not post
/// within its budget, the app posts at its next launch. Each file is written whole and renamed into
/// place, and removed once the server has the receipt, so a receipt is sent until it arrives and
/// the server's idempotency (by receipt ID) makes a repeat harmless.
public struct ReceiptOutbox: Sendable {
    /// The directory, `<shared>/notibase-outbox`.
    public let directory: URL

    /// An outbox in `shared/notibase-outbox`.
    public init(shared: URL) {
        directory = shared.appendingPathComponent("notibase-outbox")
    }

    /// Keeps `receipt` until it is sent.
    public func add(_ receipt: Receipt) {
        guard let data = try? JSONEncoder().encode(receipt) else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = Self.fileName(for: receipt.id)
        let temporary = directory.appendingPathComponent("." + name + ".tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data) else { return }
        _ = rename(temporary.path, directory.appendingPathComponent(name).path)
    }

    /// Forgets `receipt` (it reached the server, or the server will never take it).
    public func remove(_ receipt: Receipt) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(Self.fileName(for: receipt.id)))
    }

    /// The receipts waiting, oldest first.
    public func pending() -> [Receipt] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        let receipts = names.filter { $0.hasSuffix(".receipt.json") && !$0.hasPrefix(".") }.compactMap { name -> Receipt? in
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { return nil }
            return try? JSONDecoder().decode(Receipt.self, from: data)
        }
        return receipts.sorted { $0.occurredAt < $1.occurredAt }
    }

    /// Posts every waiting receipt; removes those the server accepted (or refused for good).
    /// Returns how many were sent.
    @discardableResult
    public func flush(with poster: any ReceiptPosting, timeout: Duration = .seconds(10)) async -> Int {
        var sent = 0
        for receipt in pending() {
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
