import Foundation

/// A directory for one test's files, removed when the test releases it.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("UNShimTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Creates a file of exactly `size` bytes. Big files are sparse (a truncate past the end), so
    /// they cost no disk space.
    @discardableResult
    func file(named name: String, size: Int64 = 16) throws -> URL {
        let file = url.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: file.path, contents: Data("notibase".utf8.prefix(Int(min(size, 8))))) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return file
    }
}
