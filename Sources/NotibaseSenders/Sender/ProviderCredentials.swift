import NotibaseCore

/// An app's credentials for one provider, as the server decrypted them for sending.
///
/// Never logged, never part of an error description (`description` redacts them).
package enum ProviderCredentials: Sendable, Hashable, CustomStringConvertible {
    /// APNs: a token-based (.p8) key or a certificate.
    case apns(APNsCredentials)
    /// FCM HTTP v1: a service account.
    case fcm(FCMCredentials)

    package var description: String {
        switch self {
        case .apns(let credentials): credentials.description
        case .fcm(let credentials): credentials.description
        }
    }
}

/// The APNs credentials of one app in one environment.
package struct APNsCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The Notibase app that owns them; connections are pooled per app and environment.
    package var appID: String
    /// The app's bundle identifier, sent as `apns-topic`.
    package var bundleID: String
    /// Production or sandbox (development builds).
    package var environment: APNsEnvironment
    /// How the provider authenticates.
    package var authentication: Authentication
    /// Changes whenever the app's credentials change, so cached tokens and connections are
    /// dropped.
    package var revision: Int

    /// Token (JWT) or certificate authentication.
    package enum Authentication: Sendable, Hashable {
        /// A `.p8` signing key: the PEM text, its 10-character key ID and the team ID.
        case token(privateKeyPEM: String, keyID: String, teamID: String)
        /// A TLS client certificate and its private key, both PEM.
        case certificate(certificatePEM: String, privateKeyPEM: String)
    }

    package init(appID: String, bundleID: String, environment: APNsEnvironment, authentication: Authentication, revision: Int = 0) {
        self.appID = appID
        self.bundleID = bundleID
        self.environment = environment
        self.authentication = authentication
        self.revision = revision
    }

    package var description: String {
        switch authentication {
        case .token(_, let keyID, let teamID):
            "APNs token key \(keyID) (team \(teamID)) for \(bundleID), \(environment.rawValue)"
        case .certificate:
            "APNs certificate for \(bundleID), \(environment.rawValue)"
        }
    }
}

/// Which APNs service to use. Development builds of an app get sandbox tokens.
package enum APNsEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    /// `api.push.apple.com`.
    case production
    /// `api.sandbox.push.apple.com`.
    case sandbox
}

/// The FCM HTTP v1 credentials of one app: the fields of a Google service account JSON that
/// sending needs.
package struct FCMCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The Notibase app that owns them.
    package var appID: String
    /// The Firebase project ID (`project_id`).
    package var projectID: String
    /// The service account's email (`client_email`), the JWT issuer.
    package var clientEmail: String
    /// The RSA private key, PEM (`private_key`).
    package var privateKeyPEM: String
    /// The OAuth 2.0 token endpoint (`token_uri`).
    package var tokenURI: String
    /// Changes whenever the app's credentials change.
    package var revision: Int

    package init(appID: String, projectID: String, clientEmail: String, privateKeyPEM: String, tokenURI: String = "https://oauth2.googleapis.com/token", revision: Int = 0) {
        self.appID = appID
        self.projectID = projectID
        self.clientEmail = clientEmail
        self.privateKeyPEM = privateKeyPEM
        self.tokenURI = tokenURI
        self.revision = revision
    }

    package var description: String {
        "FCM service account \(clientEmail) for project \(projectID)"
    }
}
