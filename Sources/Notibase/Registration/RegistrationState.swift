import Foundation
import NotibaseCore

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

    var pending: DeviceRegistrationRequest? { Self.read(pendingFile) }
    var sent: DeviceRegistrationRequest? { Self.read(sentFile) }
    var pendingSignOut: DeviceSignOutRequest? { Self.read(signOutFile) }

    func setPendingSignOut(_ signOut: DeviceSignOutRequest) {
        Self.write(signOut, to: signOutFile)
    }

    /// The server took `signOut` (or never will): it is no longer pending, unless another was
    /// queued meanwhile.
    func markSignedOut(_ signOut: DeviceSignOutRequest) {
        if pendingSignOut == signOut { try? FileManager.default.removeItem(at: signOutFile) }
    }

    func setPending(_ registration: DeviceRegistrationRequest) {
        Self.write(registration, to: pendingFile)
    }

    /// The server accepted `registration`: it becomes the sent one, and is no longer pending
    /// unless a newer one was queued meanwhile.
    func markSent(_ registration: DeviceRegistrationRequest) {
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
