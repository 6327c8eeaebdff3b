public import Foundation

/// The key for a UTI string naming the attachment's type; without it the system uses the file
/// name's extension.
public let UNNotificationAttachmentOptionsTypeHintKey: String = "UNNotificationAttachmentOptionsTypeHintKey"
/// The key for a Boolean (NSNumber) that hides the attachment's thumbnail.
public let UNNotificationAttachmentOptionsThumbnailHiddenKey: String = "UNNotificationAttachmentOptionsThumbnailHiddenKey"
/// The key for a normalized clipping rectangle (a CGRect dictionary) of the thumbnail.
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey: String = "UNNotificationAttachmentOptionsThumbnailClippingRectKey"
/// The key for the frame number or time (NSNumber, or a CMTime dictionary) of the thumbnail.
public let UNNotificationAttachmentOptionsThumbnailTimeKey: String = "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// A media file associated with a notification (Apple's `UNNotificationAttachment`). Immutable.
///
/// The initializer validates as iOS does: a readable file URL, a supported type (from the type hint
/// or else the extension) and the size limit of that type. The system checks again after the
/// service extension finishes, and moves the file into its data store.
public class UNNotificationAttachment: NSObject, NSCopying {
    /// The unique identifier for the attachment.
    public let identifier: String
    /// The URL of the file for this attachment.
    public let url: URL
    /// The UTI type of the attachment, such as `public.jpeg`.
    public let type: String

    /// The kind (image, audio, movie), which sets the size limit.
    let kind: AttachmentKind
    /// The file's size in bytes when the attachment was created.
    let fileSize: Int64
    /// Whether the options asked to hide the thumbnail.
    let thumbnailHidden: Bool

    init(identifier: String, url: URL, type: String, kind: AttachmentKind, fileSize: Int64, thumbnailHidden: Bool) {
        self.identifier = identifier
        self.url = url
        self.type = type
        self.kind = kind
        self.fileSize = fileSize
        self.thumbnailHidden = thumbnailHidden
        super.init()
    }

    /// Creates an attachment object from the specified file and options.
    ///
    /// - Parameters:
    ///   - identifier: The attachment's identifier; an empty string gets a unique one.
    ///   - url: A file URL of a file the process can read.
    ///   - options: `UNNotificationAttachmentOptions…Key` values.
    /// - Throws: `UNError` with `attachmentInvalidURL` (not a readable file), `attachmentUnrecognizedType`
    ///   (no supported type from the hint or the extension) or `attachmentInvalidFileSize` (over the
    ///   limit of its type).
    public convenience init(identifier: String, url fileURL: URL, options: [AnyHashable: Any]? = nil) throws {
        let size = try Self.readableFileSize(at: fileURL)
        let type = try Self.type(of: fileURL, hint: options?[UNNotificationAttachmentOptionsTypeHintKey])
        guard let kind = AttachmentKind.kindsByType[type] else {
            throw UNError(.attachmentUnrecognizedType, "Unsupported attachment type \(type)")
        }
        guard size <= kind.maximumFileSize else {
            throw UNError(.attachmentInvalidFileSize,
                          "Attachment \(fileURL.lastPathComponent) is \(size) bytes; \(kind.rawValue) attachments may have at most \(kind.maximumFileSize)")
        }
        let hidden = (options?[UNNotificationAttachmentOptionsThumbnailHiddenKey] as? NSNumber)?.boolValue
            ?? options?[UNNotificationAttachmentOptionsThumbnailHiddenKey] as? Bool ?? false
        self.init(identifier: identifier.isEmpty ? UUID().uuidString : identifier, url: fileURL, type: type,
                  kind: kind, fileSize: size, thumbnailHidden: hidden)
    }

    /// The size of the regular, readable file at `url`.
    static func readableFileSize(at url: URL) throws -> Int64 {
        guard url.isFileURL else {
            throw UNError(.attachmentInvalidURL, "Attachment URL \(url.absoluteString) is not a file URL; download the file first")
        }
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: path),
              let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
        else {
            throw UNError(.attachmentInvalidURL, "No readable file at \(path)")
        }
        return size.int64Value
    }

    /// The UTI from the type hint, or else from the filename extension.
    private static func type(of url: URL, hint: Any?) throws -> String {
        if let hint {
            guard let type = hint as? String ?? (hint as? NSString).map({ String(describing: $0) }) else {
                throw UNError(.attachmentUnrecognizedType, "The type hint must be a UTI string, such as public.jpeg")
            }
            return type
        }
        let pathExtension = url.pathExtension.lowercased()
        guard let type = AttachmentKind.typesByExtension[pathExtension] else {
            throw UNError(.attachmentUnrecognizedType,
                          pathExtension.isEmpty
                              ? "\(url.lastPathComponent) has no filename extension; add one (.jpg, .png, …) or a type hint"
                              : "Unsupported attachment extension .\(pathExtension); use JPEG, GIF, PNG, AIFF, WAV, MP3, M4A, MPEG, MP4 or AVI")
        }
        return type
    }

    /// Returns the receiver: attachments are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }
}
