public import Foundation

/// Downloads a notification's image to a file iOS can attach.
public protocol ImageFetching: Sendable {
    /// Downloads `url` within `timeout`; never throws: a failure is a result with the reason.
    func fetch(_ url: String, timeout: Duration) async -> ImageFetchResult
}

/// A downloaded image, or why there is none.
public enum ImageFetchResult: Sendable, Hashable {
    /// The file (named with the type's extension) and its type.
    case downloaded(file: URL, type: ImageType, bytes: Int)
    /// Why the notification goes without its image, in plain words.
    case failed(reason: String)
}

/// What the downloader accepts.
public struct ImageDownloadPolicy: Sendable, Hashable {
    /// The largest image, in bytes: iOS attaches images up to 10 MB.
    public var maximumBytes: Int
    /// The most redirects followed before giving up (a loop stops here).
    public var maximumRedirects: Int
    /// Plain `http` to 127.0.0.1, ::1 or localhost: for tests and `notibase demo` only. iOS
    /// refuses plain http (App Transport Security), so production builds leave this off.
    public var allowsLoopbackHTTP: Bool
    /// Where downloaded files are written (iOS moves attached files out of it).
    public var directory: URL

    /// The production policy: https only, 10 MB, 5 redirects, the temporary directory.
    public init(
        maximumBytes: Int = 10_000_000,
        maximumRedirects: Int = 5,
        allowsLoopbackHTTP: Bool = false,
        directory: URL = FileManager.default.temporaryDirectory
    ) {
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
        self.allowsLoopbackHTTP = allowsLoopbackHTTP
        self.directory = directory
    }

    /// Why `url` may not be fetched, or nil when it may.
    func refusal(for url: URL?) -> String? {
        guard let url, let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            return "the image URL is not a valid URL"
        }
        if scheme == "https" { return nil }
        if scheme == "http" {
            if allowsLoopbackHTTP && ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased()) { return nil }
            return "the image URL is http; iOS loads only https (App Transport Security)"
        }
        return "the image URL's scheme is \(scheme); only https is supported"
    }
}
