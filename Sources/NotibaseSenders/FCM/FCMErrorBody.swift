import FoundationEssentials
import FoundationInternationalization

/// A Google API error: `{"error": {"code", "message", "status", "details": [...]}}`, and the
/// message name of a success: `{"name": "projects/…/messages/…"}`.
struct FCMErrorBody: Decodable {
    struct Detail: Decodable {
        var type: String?
        var errorCode: String?
        var fieldViolations: [FieldViolation]?

        enum CodingKeys: String, CodingKey {
            case type = "@type"
            case errorCode
            case fieldViolations
        }
    }

    struct FieldViolation: Decodable {
        var field: String?
    }

    struct Content: Decodable {
        var message: String?
        var status: String?
        var details: [Detail]?
    }

    var error: Content?
    var name: String?

    static func parse(_ bytes: [UInt8]) -> FCMErrorBody {
        guard !bytes.isEmpty, let body = try? JSONDecoder().decode(FCMErrorBody.self, from: Data(bytes)) else {
            return FCMErrorBody()
        }
        return body
    }

    /// The FCM error code of the `FcmError` detail.
    var code: FCMErrorCode? {
        error?.details?.lazy.compactMap(\.errorCode).first.map(FCMErrorCode.init(rawValue:))
    }

    /// Whether the error is about the registration token (`message.token`).
    var isAboutRegistrationToken: Bool {
        let fields = error?.details?.flatMap { $0.fieldViolations ?? [] }.compactMap(\.field) ?? []
        return fields.contains("message.token") || (error?.message?.localizedLowercase.contains("registration token") ?? false)
    }

    /// The provider's own reason: the FCM code, else Google's canonical status.
    var reason: String? {
        code?.rawValue ?? error?.status
    }
}
