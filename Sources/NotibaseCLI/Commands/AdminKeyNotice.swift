import Foundation
import NotibaseServer
import NotibaseDomain
import NotibaseStore
import NotibaseSQLite
import NotibasePostgres
import NotibaseHTTP
import NotibaseOutbound
import NotibaseWebhooks
import NotibaseServices
import NotibaseAPI
import NotibaseDelivery
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a new admin key reaches the operator, once. A terminal shows it. Any other standard output
/// (systemd's journal, a log file) would keep it for whoever reads logs, so the key goes to
/// `admin.key` in the data directory instead, readable by the server's user only, and only that
/// file's path is printed and logged.
enum AdminKeyNotice {
    static let fileName = "admin.key"

    /// Shows `key`, or writes it to the file and says where; `event` says what happened ("created
    /// the admin key").
    static func deliver(_ key: String, event: String, dataDirectory: String, io: TerminalIO, logger: Logger) throws {
        if io.outputIsTerminal {
            io.writeOutput("notibase: \(event). It is shown only this once; store it now:\n\(key)\n")
            return
        }
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent(fileName).standardizedFileURL.path
        try writePrivately(key + "\n", to: path)
        logger.info("\(event): the key is in a file only this user can read", ["file": .string(path)])
        io.writeOutput("notibase: \(event). It is in \(path) (only this user can read it): store it elsewhere, then delete the file\n")
    }

    /// Writes `text` to `path` with mode 0600 from its first byte (a file in the same directory,
    /// renamed over `path`): no moment when another user could open it, whatever the umask.
    static func writePrivately(_ text: String, to path: String) throws {
        let temporary = path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileFailure(path: temporary, action: "create") }
        var complete = fchmod(descriptor, 0o600) == 0
        var bytes = Array(text.utf8)
        var offset = 0
        while complete && offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { complete = false } else { offset += written }
        }
        complete = complete && fsync(descriptor) == 0
        bytes.removeAll()
        close(descriptor)
        guard complete, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw FileFailure(path: path, action: "write")
        }
    }

    struct FileFailure: Error, CustomStringConvertible {
        var path: String
        var action: String
        var code = errno
        var description: String {
            "cannot \(action) \(path) (\(String(cString: strerror(code)))): the admin key is in the database only as a hash; "
                + "make a new one with notibase admin-key rotate once the directory is writable by this user"
        }
    }
}
