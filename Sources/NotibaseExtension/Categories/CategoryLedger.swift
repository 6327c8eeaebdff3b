import Foundation

/// When each Notibase-owned category was last used, so the least recently used can be evicted.
///
/// The extension process is short-lived, so the file-backed ledger keeps this on disk (in the App
/// Group container when there is one, shared with the app). It is only read and written inside the
/// registrar's serial section.
public protocol CategoryLedger: Sendable {
    /// The last use of every identifier the ledger knows.
    func lastUsed() -> [String: Date]
    /// Records a use of `identifier` at `date`, and forgets `removed`.
    func record(use identifier: String, at date: Date, removing removed: Set<String>)
}

/// A ledger in memory, for tests and for when no directory is writable.
public final class InMemoryCategoryLedger: CategoryLedger {
    private let uses = Locked([String: Date]())

    /// An empty ledger.
    public init() {}

    public func lastUsed() -> [String: Date] { uses.withLock { $0 } }

    public func record(use identifier: String, at date: Date, removing removed: Set<String>) {
        uses.withLock { uses in
            for identifier in removed { uses[identifier] = nil }
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

    public func record(use identifier: String, at date: Date, removing removed: Set<String>) {
        cache.withLock { cached in
            var uses = load()  // another process may have written since
            for identifier in removed { uses[identifier] = nil }
            uses[identifier] = date
            cached = uses
            let encoded = uses.mapValues { $0.timeIntervalSince1970 }
            if let data = try? JSONEncoder().encode(encoded) {
                try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? data.write(to: file, options: .atomic)
            }
        }
    }

    private func load() -> [String: Date] {
        guard let data = try? Data(contentsOf: file),
            let decoded = try? JSONDecoder().decode([String: Double].self, from: data)
        else { return [:] }
        return decoded.mapValues { Date(timeIntervalSince1970: $0) }
    }
}
