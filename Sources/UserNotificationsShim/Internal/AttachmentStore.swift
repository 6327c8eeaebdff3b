import Foundation

/// The system's attachment data store of one device: after a service extension finishes, iOS
/// validates each attachment again and moves its file here.
final class AttachmentStore: Sendable {
    let directory: URL
    private let ownsDirectory: Bool

    init(directory: URL?, deviceName: String) {
        if let directory {
            self.directory = directory
            ownsDirectory = false
        } else {
            self.directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("UserNotificationsShim-\(UUID().uuidString)", isDirectory: true)
            ownsDirectory = true
        }
    }

    deinit {
        if ownsDirectory {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    struct Outcome {
        var stored: [UNNotificationAttachment] = []
        var drawn: [DrawnNotification.Attachment] = []
        var dropped: [DrawnNotification.DroppedAttachment] = []
    }

    /// Validates each attachment's file again (it must still exist and fit its type's limit) and
    /// moves or copies it into the store; the ones that fail are dropped, as iOS drops them.
    func keep(_ attachments: [UNNotificationAttachment], handling: AttachmentHandling) -> Outcome {
        var outcome = Outcome()
        guard !attachments.isEmpty else { return outcome }
        let folder = directory.appendingPathComponent(UUID().uuidString, isDirectory: true)
        for attachment in attachments {
            func drop(_ reason: DrawnNotification.DropReason) {
                outcome.dropped.append(DrawnNotification.DroppedAttachment(
                    identifier: attachment.identifier, type: attachment.type, path: attachment.url.path, reason: reason))
            }
            guard let size = try? UNNotificationAttachment.readableFileSize(at: attachment.url) else {
                drop(.fileMissing)
                continue
            }
            guard size <= attachment.kind.maximumFileSize else {
                drop(.fileTooLarge)
                continue
            }
            guard AttachmentKind.contents(Self.prefix(of: attachment.url), match: attachment.type) else {
                drop(.contentsDoNotMatchType)
                continue
            }
            let destination = folder.appendingPathComponent("\(outcome.stored.count)-\(attachment.url.lastPathComponent)")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                switch handling {
                case .move: try FileManager.default.moveItem(at: attachment.url, to: destination)
                case .copy: try FileManager.default.copyItem(at: attachment.url, to: destination)
                }
            } catch {
                drop(.moveIntoStoreFailed)
                continue
            }
            outcome.stored.append(UNNotificationAttachment(
                identifier: attachment.identifier, url: destination, type: attachment.type, kind: attachment.kind,
                fileSize: size, thumbnailHidden: attachment.thumbnailHidden))
            outcome.drawn.append(DrawnNotification.Attachment(
                identifier: attachment.identifier, type: attachment.type, fileSize: size,
                thumbnailHidden: attachment.thumbnailHidden, storedPath: destination.path))
        }
        return outcome
    }

    /// The first 16 bytes of a file (fewer for a shorter or unreadable one).
    private static func prefix(of url: URL) -> [UInt8] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: 16)) ?? Data())
    }
}
