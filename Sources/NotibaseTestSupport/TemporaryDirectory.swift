public import Foundation

/// A directory for one test, removed when the value goes away.
public final class TemporaryDirectory: Sendable {
    /// Its location.
    public let url: URL
    /// Its location as a file-system path.
    public var path: String { url.path }

    /// Creates a new, empty directory.
    public init(_ label: String = "notibase-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
