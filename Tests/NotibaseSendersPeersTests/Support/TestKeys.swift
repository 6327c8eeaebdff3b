import Foundation
import Synchronization
@testable import NotibaseSenders

/// Signing keys made for one test: an APNs `.p8` key and a service account, with what a peer
/// needs to verify their signatures.
struct TestAPNsKey {
    let privateKeyPEM: String
    let publicKeyPEM: String
    let keyID: String
    let teamID: String

    init(keyID: String = "ABC123DEFG", teamID: String = "DEF123GHIJ") throws {
        let key = try SigningKey.generate(.es256)
        privateKeyPEM = try key.privateKeyPEM()
        publicKeyPEM = try key.publicKeyPEM()
        self.keyID = keyID
        self.teamID = teamID
    }

    /// The `--keys` JSON for the APNs peer.
    var peerKeysJSON: String {
        let object = [keyID: ["team": teamID, "public_key": publicKeyPEM]]
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}

struct TestServiceAccount {
    let privateKeyPEM: String
    let publicKeyPEM: String
    let clientEmail = "notibase-test@example-project.iam.gserviceaccount.com"
    let projectID = "example-project"

    init() throws {
        // RSA key generation takes a noticeable share of a core: a small pool of keys is made
        // once and handed out in turn (tests that need two accounts get two different keys).
        (privateKeyPEM, publicKeyPEM) = try Self.nextKey()
    }

    private static let pool: [(String, String)] = (0..<3).map { _ in
        let key = try! SigningKey.generate(.rs256)
        return (try! key.privateKeyPEM(), try! key.publicKeyPEM())
    }
    private static let next = Mutex(0)

    private static func nextKey() throws -> (String, String) {
        pool[next.withLock { value in
            defer { value += 1 }
            return value % pool.count
        }]
    }

    /// The `--service-account` JSON for the FCM peer.
    var peerJSON: String {
        let object = ["client_email": clientEmail, "public_key": publicKeyPEM, "project_id": projectID]
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}

/// A 64-hex-digit device token, distinct per `number`.
func deviceToken(_ number: Int) -> String {
    let hex = String(number, radix: 16)
    return String(repeating: "0", count: 64 - hex.count) + hex
}
