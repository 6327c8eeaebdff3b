import Foundation

/// An image type iOS attaches to a notification: JPEG, PNG or GIF (Apple's documented list).
///
/// `UNNotificationAttachment` tells a file's type from its path extension or the type hint, and iOS
/// then drops a file whose bytes are not that type: a downloaded file gets the extension and the
/// hint of the type its bytes show.
public enum ImageType: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case gif

    /// The uniform type identifier, passed as `UNNotificationAttachmentOptionsTypeHintKey`.
    public var uniformTypeIdentifier: String {
        switch self {
        case .jpeg: "public.jpeg"
        case .png: "public.png"
        case .gif: "com.compuserve.gif"
        }
    }

    /// The MIME type, as servers name it.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        }
    }

    /// The file name extension the attachment file gets.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        }
    }

    /// The type a `Content-Type` header names: `.supported(type)`, `.unsupported` for a definite
    /// other type (`image/webp`, `text/html`), or `.unknown` when absent or generic
    /// (`application/octet-stream`), so that the bytes decide.
    static func fromContentType(_ header: String?) -> Detection {
        guard let header else { return .unknown }
        let mime = header.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch mime {
        case "image/jpeg", "image/jpg", "image/pjpeg": return .supported(.jpeg)
        case "image/png", "image/x-png": return .supported(.png)
        case "image/gif": return .supported(.gif)
        case "", "application/octet-stream", "binary/octet-stream", "application/binary", "application/unknown": return .unknown
        default: return .unsupported(mime)
        }
    }

    /// The type the first bytes of a file show (its "magic number").
    static func fromMagic(_ prefix: [UInt8]) -> ImageType? {
        if prefix.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if prefix.starts(with: Array("GIF87a".utf8)) || prefix.starts(with: Array("GIF89a".utf8)) { return .gif }
        return nil
    }

    /// The type a URL's path extension names.
    static func fromPathExtension(_ url: String) -> ImageType? {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jpg", "jpeg", "jpe": return .jpeg
        case "png": return .png
        case "gif": return .gif
        default: return nil
        }
    }

    /// The outcome of reading a `Content-Type`.
    enum Detection: Equatable {
        case supported(ImageType)
        case unsupported(String)
        case unknown
    }
}
