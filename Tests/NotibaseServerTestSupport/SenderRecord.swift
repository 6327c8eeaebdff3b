import Foundation

/// What `notibase serve --sender accept --sender-record PATH` wrote: a line for each push it sent
/// (none while the file does not exist yet).
enum SenderRecord {
    static func lines(_ path: String) -> [Substring] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }
}
