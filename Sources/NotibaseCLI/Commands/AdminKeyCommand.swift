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

/// `notibase admin-key rotate`: replaces the stored admin key with a new one, shown once as
/// `serve` shows the first (on a terminal, else in `admin.key` in the data directory).
enum AdminKeyCommand: Command {
    static let name = "admin-key"
    static let summary = "make a new admin key for a server's database (the old key stops working when the server restarts)"
    static let usage = """
        notibase admin-key rotate [--data-dir DIR] [--database URL]

          Makes a new admin key and stores its hash in place of the old one, in the SQLite database in DIR
          (--data-dir, NOTIBASE_DATA_DIR, default ./data) or in the PostgreSQL database (--database,
          NOTIBASE_DATABASE_URL). Run it as the server's user: it refuses a DIR another user owns. The key
          is shown once: on standard output when that is a terminal, else written to DIR/admin.key (readable
          by this user only) with only the file's path printed. A running server keeps accepting the old
          key until it restarts: restart it (every node on a PostgreSQL database), for example
          systemctl restart notibase.
        """
    static let options: [OptionSpec] = [.value("data-dir"), .value("database")]

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        try arguments.expectPositional(atMost: 1)
        guard arguments.positional.first == "rotate" else {
            throw UsageError(arguments.positional.isEmpty ? "say what to do: rotate" : "unknown action '\(arguments.positional[0])' (the action is rotate)")
        }
        let environment = ProcessInfo.processInfo.environment
        guard environment["NOTIBASE_ADMIN_KEY"].map(\.isEmpty) ?? true else {
            throw UsageError("NOTIBASE_ADMIN_KEY is set: the server replaces the stored key with it at every start, so a rotated key would not last. Remove it (from /etc/notibase/notibase.env too), then rotate")
        }
        let settings = ServeCommand.Settings(arguments: arguments, environment: environment)
        var configuration = ServerConfiguration()
        configuration.dataDirectory = settings.value("data-dir", "NOTIBASE_DATA_DIR") ?? configuration.dataDirectory
        configuration.databaseURL = settings.value("database", "NOTIBASE_DATABASE_URL")
        configuration.databasePoolSize = 1
        if configuration.databaseURL == nil { try checkOwner(of: configuration.dataDirectory) }
        let key = try await Server.rotateAdminKey(configuration)
        try AdminKeyNotice.deliver(
            key, event: "made a new admin key (the old one works until the server restarts: restart it now)",
            dataDirectory: configuration.dataDirectory, io: io, logger: Logger(minimumLevel: .warning))
        return 0
    }

    /// SQLite in a directory another user owns (root running it on the service's): the files it
    /// would leave there (the write-ahead log, admin.key) would be this user's, and the server's
    /// user could not open its own database.
    private static func checkOwner(of directory: String) throws {
        var info = stat()
        guard stat(directory, &info) == 0, info.st_uid != geteuid() else { return }
        let owner = getpwuid(info.st_uid).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? String(info.st_uid)
        throw UsageError("\(directory) belongs to the user \(owner): run this as that user, such as sudo -u \(owner) notibase admin-key rotate --data-dir \(directory)")
    }
}
