import Foundation
import NotibaseCore

/// What the server knows this device by (`POST /v1/devices` with the client key): the core's
/// request type, which the server reads.
typealias DeviceRegistration = DeviceRegistrationRequest

extension DeviceRegistration {
    /// The hexadecimal form iOS's `Data` token is registered under.
    static func hex(_ token: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.count * 2)
        for byte in token {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The device's locale as the server takes it (`fr-FR`).
    static var currentLocale: String {
        Locale.current.identifier.replacingOccurrences(of: "_", with: "-")
    }
}

/// The registration waiting to be sent, and the last one the server accepted, on disk so that
/// neither is lost offline or across launches.
struct RegistrationState: Sendable {
    let pendingFile: URL
    let sentFile: URL

    init(directory: URL) {
        pendingFile = directory.appendingPathComponent("registration-pending.json")
        sentFile = directory.appendingPathComponent("registration-sent.json")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var pending: DeviceRegistration? { Self.read(pendingFile) }
    var sent: DeviceRegistration? { Self.read(sentFile) }

    func setPending(_ registration: DeviceRegistration) {
        Self.write(registration, to: pendingFile)
    }

    /// The server accepted `registration`: it becomes the sent one, and is no longer pending
    /// unless a newer one was queued meanwhile.
    func markSent(_ registration: DeviceRegistration) {
        var accepted = registration
        accepted.previousToken = nil
        Self.write(accepted, to: sentFile)
        if pending == registration { try? FileManager.default.removeItem(at: pendingFile) }
    }

    private static func read(_ file: URL) -> DeviceRegistration? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return try? JSONDecoder().decode(DeviceRegistration.self, from: data)
    }

    private static func write(_ registration: DeviceRegistration, to file: URL) {
        guard let data = try? JSONEncoder().encode(registration) else { return }
        try? data.write(to: file, options: .atomic)
    }
}
