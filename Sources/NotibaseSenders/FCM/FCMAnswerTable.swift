/// Every error FCM HTTP v1 documents, in one table: error code → what Notibase does, and why.
/// Answers without an FCM error code (an expired access token, a wrong project) fall back on
/// their HTTP status.
enum FCMAnswerTable {
    /// One row: the code, the HTTP status FCM sends it with, the action, our explanation.
    struct Row: Sendable, Hashable {
        var code: FCMErrorCode
        var status: Int
        var action: ProviderAction
        var explanation: String
    }

    /// The documented error codes. `INVALID_ARGUMENT` about the registration token is the row
    /// `invalidRegistrationToken`.
    static let rows: [Row] = [
        Row(code: .unspecifiedError, status: 500, action: .retry, explanation: "FCM gave no detail about this error; retried later."),
        Row(code: .invalidArgument, status: 400, action: .failed, explanation: "FCM refused a field of the message; it cannot be sent as it is."),
        Row(code: .unregistered, status: 404, action: .deactivateDevice, explanation: "The registration token is no longer valid (the app was uninstalled or the token expired)."),
        Row(code: .senderIDMismatch, status: 403, action: .credentialsRejected, explanation: "The token belongs to another Firebase project than the app's service account: check the project."),
        Row(code: .quotaExceeded, status: 429, action: .retryAfterQuota, explanation: "The sending quota was exceeded; retried after at least a minute."),
        Row(code: .unavailable, status: 503, action: .retry, explanation: "FCM is overloaded; retried later, after Retry-After."),
        Row(code: .internal, status: 500, action: .retry, explanation: "FCM had an internal error; retried later, after Retry-After."),
        Row(code: .thirdPartyAuthError, status: 401, action: .credentialsRejected, explanation: "The APNs certificate or web push key in the Firebase project is invalid or missing: fix it in the Firebase console."),
    ]

    /// `INVALID_ARGUMENT` naming the registration token (`message.token`).
    static let invalidRegistrationToken = Row(code: .invalidArgument, status: 400, action: .deactivateDevice, explanation: "The registration token is not a valid FCM token: the device is deactivated.")

    private static let byCode: [FCMErrorCode: Row] = Dictionary(rows.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// The row for an answer: by FCM error code when there is one, else by HTTP status.
    static func row(status: Int, code: FCMErrorCode?, aboutRegistrationToken: Bool) -> Row {
        if (200..<300).contains(status) { return Row(code: FCMErrorCode(""), status: status, action: .sent, explanation: "Accepted by FCM.") }
        if code == .invalidArgument && aboutRegistrationToken { return invalidRegistrationToken }
        if let code, let row = byCode[code] { return row }
        return fallback(status: status, code: code ?? FCMErrorCode(""))
    }

    /// An answer without a known FCM error code: its status decides, never deactivating a device
    /// on a guess.
    static func fallback(status: Int, code: FCMErrorCode) -> Row {
        let (action, explanation): (ProviderAction, String) = switch status {
        case 401: (.renewCredentialOnce, "FCM refused the access token; a new one is fetched. Refused again: check the service account.")
        case 403: (.credentialsRejected, "The service account may not send for this project: check its roles and that the FCM API is enabled.")
        case 404: (.credentialsRejected, "FCM does not know the project: check the project ID of the service account.")
        case 429: (.retryAfterQuota, "FCM is limiting the rate; retried after at least a minute.")
        case 500...599: (.retry, "FCM had a transient problem; retried later.")
        case 400...499: (.failed, "FCM refused the message for a reason Notibase does not know.")
        default: (.retry, "FCM answered with an unexpected status; retried later.")
        }
        return Row(code: code, status: status, action: action, explanation: explanation)
    }
}
