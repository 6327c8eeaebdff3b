import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When each Notibase-owned category was last used, so the least recently used can be evicted.
///
/// The extension process is short-lived, so the file-backed ledger keeps this on disk (in the App
/// Group container when there is one, shared with the app). It is only read and written inside the
/// registrar's serial section.
public protocol CategoryLedger: Sendable {
    /// The last use of every identifier the ledger knows.
    func lastUsed() -> [String: Date]
    /// Records a use of `identifier` at `date`, and forgets every identifier not in `registered`
    /// (so the ledger never outgrows the registered set).
    func record(use identifier: String, at date: Date, keeping registered: Set<String>)
}

/// A ledger in memory, for tests and for when no directory is writable.
public final class InMemoryCategoryLedger: CategoryLedger {
    private let uses = Locked([String: Date]())

    /// An empty ledger.
    public init() {}

    public func lastUsed() -> [String: Date] { uses.withLock { $0 } }

    public func record(use identifier: String, at date: Date, keeping registered: Set<String>) {
        uses.withLock { uses in
            uses = uses.filter { registered.contains($0.key) }
            uses[identifier] = date
        }
    }
}

/// A ledger in a small JSON file, written atomically.
public final class FileCategoryLedger: CategoryLedger {
    private let file: URL
    private let cache = Locked<[String: Date]?>(nil)

    /// A ledger stored in `directory/notibase-categories.json`.
    public init(directory: URL) {
        file = directory.appendingPathComponent("notibase-categories.json")
    }

    public func lastUsed() -> [String: Date] {
        cache.withLock { cached in
            if let cached { return cached }
            let loaded = load()
            cached = loaded
            return loaded
        }
    }

    public func record(use identifier: String, at date: Date, keeping registered: Set<String>) {
        cache.withLock { cached in
            var uses = load().filter { registered.contains($0.key) }  // another process may have written since
            uses[identifier] = date
            cached = uses
            let encoded = uses.mapValues { $0.timeIntervalSince1970 }
            if let data = try? JSONEncoder().encode(encoded) { store(data) }
        }
    }

    /// Writes a temporary file and renames it over the ledger: readers see the old or the new file,
    /// never half of one. No fsync: the ledger only orders evictions, and losing it costs nothing
    /// but that order.
    private func store(_ data: Data) {
        let directory = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".notibase-categories-\(UUID().uuidString).json")
        // POSIX calls: Foundation's createFile syncs to disk, which costs milliseconds per
        // notification for nothing here.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written != data.count || rename(temporary.path, file.path) != 0 { unlink(temporary.path) }
    }

    private func load() -> [String: Date] {
        guard let data = try? Data(contentsOf: file),
            let decoded = try? JSONDecoder().decode([String: Double].self, from: data)
        else { return [:] }
        return decoded.mapValues { Date(timeIntervalSince1970: $0) }
    }
}
