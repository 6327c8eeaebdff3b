import NotibaseCore

/// One delivery handed to a sender: the rendered provider request and the credentials of the app
/// it belongs to.
public struct Push: Sendable {
    /// The delivery's identifier in the server (a lowercase UUID). APNs echoes it as `apns-id`.
    public var deliveryID: String
    /// The rendered request, ready to send as is.
    public var request: ProviderRequest
    /// The app's credentials for the provider.
    public var credentials: ProviderCredentials

    /// A push from its parts.
    public init(deliveryID: String, request: ProviderRequest, credentials: ProviderCredentials) {
        self.deliveryID = deliveryID
        self.request = request
        self.credentials = credentials
    }
}

/// A rendered request for one provider.
public enum ProviderRequest: Sendable, Equatable {
    /// An APNs request (path, headers, body).
    case apns(APNsRequest)
    /// An FCM HTTP v1 request body.
    case fcm(FCMRequest)

    /// The device token the request is addressed to.
    public var deviceToken: String {
        switch self {
        case .apns(let request): request.deviceToken
        case .fcm(let request): request.deviceToken
        }
    }
}
