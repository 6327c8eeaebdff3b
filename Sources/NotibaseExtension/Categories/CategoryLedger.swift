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
    /// Records a use of `identifier` at `date` and forgets `removed`. `registered` is the set the
    /// system now holds: when the ledger has more entries than that, those no longer registered are
    /// dropped too (the ledger never outgrows the registered set).
    func record(use identifier: String, at date: Date, removing removed: Set<String>, registered: Set<String>)
}

/// A ledger in memory, for tests and for when no directory is writable.
public final class InMemoryCategoryLedger: CategoryLedger {
    private let uses = Locked([String: Date]())

    /// An empty ledger.
    public init() {}

    public func lastUsed() -> [String: Date] { uses.withLock { $0 } }

    public func record(use identifier: String, at date: Date, removing removed: Set<String>, registered: Set<String>) {
        uses.withLock { uses in
            for identifier in removed { uses[identifier] = nil }
            uses[identifier] = date
            if uses.count > registered.count { uses = uses.filter { registered.contains($0.key) } }
        }
    }
}

/// A ledger in a small text file (`<milliseconds since 1970> <identifier>` a line), rewritten on
/// each change and read again only when another process changed it.
public final class FileCategoryLedger: CategoryLedger {
    private struct Cache {
        var uses: [String: Date] = [:]
        /// The file's modification time and size when `uses` was read or written; nil: not read.
        var stamp: FileStamp?
    }

    private let file: URL
    /// `file.path`, converted once: it is used on every delivery.
    private let path: String
    private let cache = Locked(Cache())
    private let directoryMade = Locked(false)

    /// Uses closer together than this are not worth a write: eviction order is coarse.
    static let touchResolution: TimeInterval = 5

    /// A ledger stored in `directory/notibase-categories.txt`.
    public init(directory: URL) {
        file = directory.appendingPathComponent("notibase-categories.txt")
        path = file.path
    }

    public func lastUsed() -> [String: Date] {
        cache.withLock { cache in
            refresh(&cache)
            return cache.uses
        }
    }

    public func record(use identifier: String, at date: Date, removing removed: Set<String>, registered: Set<String>) {
        cache.withLock { cache in
            refresh(&cache)  // another process may have written since
            // A category used again within a few seconds keeps its place: no write needed.
            if removed.isEmpty, let previous = cache.uses[identifier], date.timeIntervalSince(previous) < Self.touchResolution { return }
            for identifier in removed { cache.uses[identifier] = nil }
            cache.uses[identifier] = date
            if cache.uses.count > registered.count { cache.uses = cache.uses.filter { registered.contains($0.key) } }
            store(Self.encode(cache.uses))
            cache.stamp = FileStamp(path: path)
        }
    }

    /// The file's bytes, built directly: formatting through String costs a microsecond an entry.
    static func encode(_ uses: [String: Date]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(uses.count * 40)
        var digits = [UInt8](repeating: 0, count: 20)
        for (key, value) in uses {
            var milliseconds = UInt64(max(value.timeIntervalSince1970 * 1000, 0))
            var index = digits.count
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(milliseconds % 10)
                milliseconds /= 10
            } while milliseconds > 0
            bytes.append(contentsOf: digits[index...])
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: key.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    private func refresh(_ cache: inout Cache) {
        let stamp = FileStamp(path: path)
        guard stamp == nil || stamp != cache.stamp else { return }
        cache.stamp = stamp
        cache.uses = [:]
        guard stamp != nil, let data = FileManager.default.contents(atPath: path) else { return }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let space = line.firstIndex(of: " "), let milliseconds = Int64(line[..<space]) else { continue }
            cache.uses[String(line[line.index(after: space)...])] = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
    }

    /// Rewrites the file in place (write at offset 0, then truncate). Creating a file and renaming
    /// it over the old one costs over a hundred microseconds a notification; this costs one or two.
    /// A torn write (a crash in the middle) leaves lines the reader skips: the ledger only orders
    /// evictions, so losing part of it costs nothing but that order.
    private func store(_ data: [UInt8]) {
        directoryMade.withLock { made in
            if !made { try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true) }
            made = true
        }
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        if written == data.count { _ = ftruncate(descriptor, off_t(data.count)) }
    }
}

/// A file's modification time and size: when it changes, another process wrote the file.
struct FileStamp: Equatable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        seconds = Int(info.st_mtimespec.tv_sec)
        nanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
        size = Int(info.st_size)
    }
}
