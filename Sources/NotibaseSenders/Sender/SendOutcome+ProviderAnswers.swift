package import struct Foundation.Date

extension SendOutcome {
    /// What `APNsSender` reports when APNs answers a push with `status` and `reason`, by the same
    /// table (`APNsAnswerTable`): for stand-ins that answer as APNs does (the simulated sender),
    /// so that none is kinder than APNs.
    package static func apnsAnswer(status: Int, reason: String, invalidSince: Date? = nil) -> SendOutcome {
        let row = APNsAnswerTable.row(status: status, reason: APNsReason(reason))
        return SendOutcome(
            disposition: row.action.disposition, status: status, providerReason: reason, explanation: row.explanation,
            tokenInvalidSince: invalidSince)
    }

    /// What `FCMSender` reports when FCM answers a push with `status` and the error `code`, by the
    /// same table (`FCMAnswerTable`), a quota's retry no sooner than the sender's floor.
    package static func fcmAnswer(status: Int, code: String, retryAfter: Duration? = nil) -> SendOutcome {
        let row = FCMAnswerTable.row(status: status, code: FCMErrorCode(code), aboutRegistrationToken: false)
        var wait = retryAfter
        if row.action == .retryAfterQuota { wait = max(wait ?? .zero, FCMSenderConfiguration().quotaBackoffFloor) }
        return SendOutcome(
            disposition: row.action.disposition, status: status, providerReason: code, explanation: row.explanation,
            retryAfter: row.action.disposition == .retry ? wait : nil)
    }
}
