package import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
import NotibaseServices
extension MessagesAPI {
    /// 422 for an idempotency key the app used within 24 hours for another request: the key is
    /// named by where it came (`idempotencyKey` in the body, or the `Idempotency-Key` header).
    package static func idempotencyKeyReused(_ key: String, field: String, _ reused: IdempotencyKeyReused) -> Refusal {
        Refusal(
            kind: .unprocessable, code: "idempotency_key_reused",
            message: "the idempotency key \"\(key)\" was used within the last 24 hours for another request (message \(reused.messageID)); "
                + "repeat that request to get its answer again, or send this one with a new key",
            field: field)
    }
}
