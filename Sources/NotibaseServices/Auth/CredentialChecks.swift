import Foundation
import NotibaseCore
import NotibaseSenders
import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// What an uploaded APNs token key or FCM service account must be before it is stored: each
/// problem refused naming its field, so a key that can never sign is refused at upload, not at the
/// first send.
package enum CredentialChecks {
    /// An APNs token (.p8) key: its key ID and team ID in Apple's form, a P-256 key in PKCS#8 PEM.
    package static func apnsTokenKey(keyID: String, teamID: String, privateKey: String) throws {
        guard isAppleIdentifier(keyID) else {
            throw Refusal.invalid("keyId", "must be the 10-character key ID (A-Z and 0-9) shown next to the key in Apple's developer account")
        }
        guard isAppleIdentifier(teamID) else {
            throw Refusal.invalid("teamId", "must be the 10-character team ID (A-Z and 0-9) of the Apple developer account")
        }
        if let problem = KeyCheck.apnsSigningKeyProblem(privateKey) {
            throw Refusal.invalid("privateKey", "\(problem); it must be the P-256 key of the .p8 file Apple issued")
        }
    }

    /// An app's bundle identifier, the APNs topic: reverse-DNS, such as `com.example.shop`.
    package static func bundleID(_ bundleID: String) throws {
        guard isBundleID(bundleID) else {
            throw Refusal.invalid(
                "bundleId", "must be the app's bundle identifier in reverse-DNS form, such as com.example.shop (letters, digits, hyphens, dots between parts)")
        }
    }

    /// A Google service account JSON, checked before it is decoded: every field sending needs,
    /// the type, an RSA key, and Google's token endpoint (any https URL when the operator set a
    /// token URL of their own, `--fcm-token-url`, which only tests do).
    package static func serviceAccount(_ body: [UInt8], acceptsAnyTokenURI: Bool) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return }  // the decoder names the problem
        for field in ["type", "project_id", "private_key", "client_email", "token_uri"] {
            guard let value = object[field] else {
                throw Refusal(kind: .invalid, code: "missing_field", message: "\(field) is required: upload the service account key file from the Firebase console as it is", field: field)
            }
            guard let text = value as? String, !text.isEmpty else { throw Refusal.invalid(field, "must be a non-empty string") }
        }
        guard object["type"] as? String == "service_account" else {
            throw Refusal.invalid("type", "must be \"service_account\": upload the service account key file from the Firebase console")
        }
        let email = object["client_email"] as? String ?? ""
        guard isEmail(email) else { throw Refusal.invalid("client_email", "must be the service account's email, such as name@project.iam.gserviceaccount.com") }
        if let problem = KeyCheck.serviceAccountKeyProblem(object["private_key"] as? String ?? "") {
            throw Refusal.invalid("private_key", "\(problem); it must be the RSA key of the service account key file")
        }
        let tokenURI = object["token_uri"] as? String ?? ""
        if acceptsAnyTokenURI {
            guard tokenURI.hasPrefix("https://") else { throw Refusal.invalid("token_uri", "must be an https URL") }
        } else {
            guard tokenURI == StoredFCMCredentials.googleTokenURI else {
                throw Refusal.invalid("token_uri", "must be Google's token endpoint, \(StoredFCMCredentials.googleTokenURI), as in the key file Firebase issues")
            }
        }
    }

    /// Apple's key and team IDs: 10 characters, A-Z and 0-9.
    package static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// Two or more parts of letters, digits and hyphens, joined by dots; at most 255 characters.
    package static func isBundleID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.utf8.count <= 255 && parts.count >= 2 && parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        }
    }

    /// One `@` with something on each side and a dot inside the domain; no white space (as the
    /// OpenAPI document's pattern says it) or control characters.
    package static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else { return false }
        return text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && $0.value != 0xFEFF && !$0.properties.isWhitespace }
    }
}
