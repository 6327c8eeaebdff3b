import NotibaseCore

/// A push that asks the provider whether an app's credentials work, and delivers nothing:
///
/// - APNs: a background push to ``apnsToken``, a well-formed token that belongs to nobody. APNs
///   checks the provider token (or certificate), the team and the topic before the device token,
///   so `400 BadDeviceToken` means it accepted all three; `InvalidProviderToken`, `BadTopic`,
///   `TopicDisallowed`, `BadCertificate`, `BadCertificateEnvironment` or another 403 mean it did not.
/// - FCM: the OAuth token exchange with the service account, then `messages:send` with
///   `"validate_only": true` to ``fcmTopic``: FCM checks the access token and the project and
///   answers as if it sent the message, which it does not.
///
/// Sent through the provider's ordinary `Sender`, so it takes the same hosts, connections and
/// token caches as the app's pushes; what comes back is read by ``verdict(of:)``, not by the
/// delivery path.
package enum CredentialTest {
    /// The APNs device token of the test: well-formed (64 hex digits) and nobody's: 48 zeros, then
    /// `notibase` in hexadecimal.
    package static let apnsToken = String(repeating: "0", count: 48) + "6e6f746962617365"
    /// The FCM topic of the dry run (nobody is subscribed, and a dry run sends to none).
    package static let fcmTopic = "notibase-credentials-test"
    /// The push's identifier, never a delivery's (theirs are random UUIDs).
    package static let pushID = "00000000-0000-4000-8000-000000000000"

    /// The test push for `credentials` (in the environment they name, for APNs).
    package static func push(_ credentials: ProviderCredentials) -> Push {
        switch credentials {
        case .apns:
            let request = APNsRequest(deviceToken: apnsToken, headers: [
                HTTPHeader("apns-push-type", "background"),
                HTTPHeader("apns-priority", "5"),
                HTTPHeader("apns-expiration", "0"),
            ], body: Array(#"{"aps":{"content-available":1}}"#.utf8))
            return Push(deliveryID: pushID, request: .apns(request), credentials: credentials)
        case .fcm:
            let body = #"{"validate_only":true,"message":{"topic":"\#(fcmTopic)","data":{"notibase":"credentials-test"}}}"#
            return Push(deliveryID: pushID, request: .fcm(FCMRequest(deviceToken: "", body: Array(body.utf8))), credentials: credentials)
        }
    }

    /// What the sender's outcome for a test push says of the credentials.
    package static func verdict(of outcome: SendOutcome) -> CredentialVerdict {
        switch outcome.disposition {
        case .sent, .deactivateDevice:
            // Past the credentials: accepted (a dry run), or refused for the token that is nobody's.
            return CredentialVerdict(state: .verified, reason: outcome.providerReason)
        case .credentialsRejected:
            let reason = outcome.providerReason.flatMap { $0.isEmpty ? nil : $0 }
                ?? outcome.status.map { "HTTP \($0)" } ?? "refused before sending"
            return CredentialVerdict(state: .rejected, reason: reason, fix: outcome.explanation)
        case .retry, .failed:
            let reason = outcome.providerReason.flatMap { $0.isEmpty ? nil : $0 } ?? outcome.status.map { "HTTP \($0)" }
            return CredentialVerdict(state: .unreachable, reason: reason ?? "no answer", fix: outcome.explanation)
        }
    }
}
