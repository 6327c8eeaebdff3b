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
/// neither is lost offline or across launches; and a sign-out waiting to be sent, which goes
/// before any registration queued with it (a sign-in after a sign-out ends signed in).
struct RegistrationState: Sendable {
    let pendingFile: URL
    let sentFile: URL
    let signOutFile: URL

    init(directory: URL) {
        pendingFile = directory.appendingPathComponent("registration-pending.json")
        sentFile = directory.appendingPathComponent("registration-sent.json")
        signOutFile = directory.appendingPathComponent("sign-out-pending.json")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var pending: DeviceRegistration? { Self.read(pendingFile) }
    var sent: DeviceRegistration? { Self.read(sentFile) }
    var pendingSignOut: DeviceSignOutRequest? { Self.read(signOutFile) }

    func setPendingSignOut(_ signOut: DeviceSignOutRequest) {
        Self.write(signOut, to: signOutFile)
    }

    /// The server took `signOut` (or never will): it is no longer pending, unless another was
    /// queued meanwhile.
    func markSignedOut(_ signOut: DeviceSignOutRequest) {
        if pendingSignOut == signOut { try? FileManager.default.removeItem(at: signOutFile) }
    }

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

    private static func read<Request: Decodable>(_ file: URL) -> Request? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return try? JSONDecoder().decode(Request.self, from: data)
    }

    private static func write(_ request: some Encodable, to file: URL) {
        guard let data = try? JSONEncoder().encode(request) else { return }
        try? data.write(to: file, options: .atomic)
    }
}
