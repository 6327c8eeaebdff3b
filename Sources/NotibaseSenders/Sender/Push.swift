package import NotibaseCore

/// One delivery handed to a sender: the rendered provider request and the credentials of the app
/// it belongs to.
package struct Push: Sendable {
    /// The delivery's identifier in the server (a lowercase UUID). APNs echoes it as `apns-id`.
    package var deliveryID: String
    /// The rendered request, ready to send as is.
    package var request: ProviderRequest
    /// The app's credentials for the provider.
    package var credentials: ProviderCredentials

    package init(deliveryID: String, request: ProviderRequest, credentials: ProviderCredentials) {
        self.deliveryID = deliveryID
        self.request = request
        self.credentials = credentials
    }
}

/// A rendered request for one provider.
package enum ProviderRequest: Sendable, Equatable {
    /// An APNs request (path, headers, body).
    case apns(APNsRequest)
    /// An FCM HTTP v1 request body.
    case fcm(FCMRequest)

    /// The device token the request is addressed to.
    package var deviceToken: String {
        switch self {
        case .apns(let request): request.deviceToken
        case .fcm(let request): request.deviceToken
        }
    }
}
