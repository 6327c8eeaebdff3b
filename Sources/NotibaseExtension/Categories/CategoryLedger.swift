public import Foundation
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

/// A ledger in a small append-only text file, read again only when another process changed it.
///
/// Each line is `<milliseconds since 1970> <identifier>` (a use) or `- <identifier>` (a removal);
/// later lines win. A delivery appends its one or two lines: rewriting every entry cost more than
/// the rest of a registration's bookkeeping. When the file holds many more lines than entries it is
/// compacted (rewritten in place with one line per entry). A torn line (a crash in the middle of a
/// write) reads as an entry no category has, which a later record drops, and every append starts a
/// new line: the ledger only orders evictions, so losing part of it costs nothing but that order.
public final class FileCategoryLedger: CategoryLedger {
    private struct Cache {
        var uses: [String: Date] = [:]
        /// Lines in the file, to know when to compact.
        var lines = 0
        /// The file's modification time and size when `uses` was read or written; nil: not read.
        var stamp: FileStamp?
        /// The file, open for appending (kept open: opening it for every notification cost more
        /// than the write), and which file it is.
        var appending: OpenFile?
    }

    private struct OpenFile {
        var descriptor: Int32
        var inode: UInt64
    }

    private let file: URL
    /// `file.path`, converted once: it is used on every delivery.
    private let path: String
    private let cache = Locked(Cache())
    private let directoryMade = Locked(false)

    /// Uses closer together than this are not worth a write: eviction order is coarse.
    static let touchResolution: TimeInterval = 5

    /// The file is compacted when it has more lines than this many per entry (and at least 256).
    static let linesPerEntry = 4

    /// A ledger stored in `directory/notibase-categories.txt`.
    public init(directory: URL) {
        file = directory.appendingPathComponent("notibase-categories.txt")
        path = file.path
    }

    deinit {
        if let appending = cache.withLock({ $0.appending }) { close(appending.descriptor) }
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
            // Starting with an end of line: should the last write have been torn, its remains end
            // there instead of swallowing this line.
            var lines: [UInt8] = [UInt8(ascii: "\n")]
            for identifier in removed where cache.uses.removeValue(forKey: identifier) != nil {
                Self.appendRemoval(identifier, to: &lines)
            }
            cache.uses[identifier] = date
            Self.appendUse(identifier, at: date, to: &lines)
            cache.lines += removed.count + 1
            var compact = cache.lines > max(Self.linesPerEntry * cache.uses.count, 256)
            if cache.uses.count > registered.count {
                cache.uses = cache.uses.filter { registered.contains($0.key) }
                compact = true
            }
            if compact {
                cache.stamp = rewrite(Self.encode(cache.uses))
                cache.lines = cache.uses.count
            } else {
                cache.stamp = append(lines, &cache)
            }
        }
    }

    /// The whole ledger, one use line per entry.
    static func encode(_ uses: [String: Date]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(uses.count * 40)
        for (key, value) in uses { appendUse(key, at: value, to: &bytes) }
        return bytes
    }

    /// `<milliseconds> <identifier>\n`, built directly: formatting through String costs a
    /// microsecond a line.
    private static func appendUse(_ identifier: String, at date: Date, to bytes: inout [UInt8]) {
        var milliseconds = UInt64(max(date.timeIntervalSince1970 * 1000, 0))
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(milliseconds % 10))
            milliseconds /= 10
        } while milliseconds > 0
        bytes[start...].reverse()
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: identifier.utf8)
        bytes.append(UInt8(ascii: "\n"))
    }

    private static func appendRemoval(_ identifier: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: [UInt8(ascii: "-"), UInt8(ascii: " ")])
        bytes.append(contentsOf: identifier.utf8)
        bytes.append(UInt8(ascii: "\n"))
    }

    private func refresh(_ cache: inout Cache) {
        let stamp = FileStamp(path: path)
        guard stamp == nil || stamp != cache.stamp else { return }
        if let appending = cache.appending, stamp?.inode != appending.inode {
            // Removed or replaced: appends must go to the file at the path.
            close(appending.descriptor)
            cache.appending = nil
        }
        cache.stamp = stamp
        cache.uses = [:]
        cache.lines = 0
        guard stamp != nil, let data = FileManager.default.contents(atPath: path) else { return }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            cache.lines += 1
            guard let space = line.firstIndex(of: " ") else { continue }
            let identifier = String(line[line.index(after: space)...])
            if line[..<space] == "-" {
                cache.uses[identifier] = nil
            } else if let milliseconds = Int64(line[..<space]) {
                cache.uses[identifier] = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            }
        }
    }

    /// Appends `lines`; returns the file's stamp after the write (nil when it failed: the next
    /// call reads the file again).
    private func append(_ lines: [UInt8], _ cache: inout Cache) -> FileStamp? {
        if cache.appending == nil {
            makeDirectory()
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return nil }
            DataProtection.allowWhileLocked(path)
            guard let stamp = FileStamp(descriptor: descriptor) else {
                close(descriptor)
                return nil
            }
            cache.appending = OpenFile(descriptor: descriptor, inode: stamp.inode)
        }
        guard let descriptor = cache.appending?.descriptor,
            lines.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == lines.count
        else { return nil }
        return FileStamp(descriptor: descriptor)
    }

    /// Rewrites the file in place (write at offset 0, then truncate): creating a file and renaming
    /// it over the old one costs over a hundred microseconds. Returns the file's stamp after the
    /// write (nil when it failed: the next call reads the file again).
    private func rewrite(_ data: [UInt8]) -> FileStamp? {
        makeDirectory()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == data.count, ftruncate(descriptor, off_t(data.count)) == 0 else { return nil }
        return FileStamp(descriptor: descriptor)
    }

    private func makeDirectory() {
        directoryMade.withLock { made in
            if !made { DataProtection.makeDirectory(file.deletingLastPathComponent()) }
            made = true
        }
    }
}

/// A file's modification time and size: when it changes, another process wrote the file.
struct FileStamp: Equatable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int
    /// Which file: a file replaced by another is a change even with the same time and size.
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        #if canImport(Darwin)
        seconds = Int(info.st_mtimespec.tv_sec)
        nanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
    }
}
