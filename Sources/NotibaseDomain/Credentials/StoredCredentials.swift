package import NotibaseSenders
import NotibaseCore

/// APNs credentials as uploaded (`PUT /v1/apps/{appId}/credentials/apns`) and sealed: a token
/// (.p8) key, or a push certificate (StoredCredentials+Certificate.swift).
package struct StoredAPNsCredentials: Sendable, Codable {
    /// Empty for a certificate, as are ``teamID`` and ``privateKey``.
    package var keyID: String
    package var teamID: String
    package var bundleID: String
    package var environment: APNsEnvironment
    package var privateKey: String
    /// Set for certificate authentication.
    package var certificate: APNsClientCertificate?

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case keyID = "keyId", teamID = "teamId", bundleID = "bundleId", environment, privateKey
        case certificate, certificateKey, pkcs12, pkcs12Password
    }

    package init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        bundleID = try c.decode(String.self, forKey: .bundleID)
        environment = try Self.environment(c)
        try check(!bundleID.isEmpty && bundleID.unicodeScalars.count <= 255, .bundleID, c, "must be the app's bundle identifier, such as com.example.app")
        if let certificate = try Self.certificate(c) {
            self.certificate = certificate
            (keyID, teamID, privateKey) = ("", "", "")
            return
        }
        keyID = try c.decode(String.self, forKey: .keyID)
        teamID = try c.decode(String.self, forKey: .teamID)
        privateKey = try c.decode(String.self, forKey: .privateKey)
        try check(keyID.unicodeScalars.count == 10, .keyID, c, "must be the 10-character key ID shown next to the key in Apple's developer account")
        try check(teamID.unicodeScalars.count == 10, .teamID, c, "must be the 10-character team ID of the Apple developer account")
        try check(privateKey.contains("-----BEGIN PRIVATE KEY-----"), .privateKey, c, "must be the text of the .p8 file, from -----BEGIN PRIVATE KEY----- to -----END PRIVATE KEY-----")
    }

    /// The non-secret part, shown by the API.
    package var summary: [String: String] {
        if let certificate { return certificateSummary(certificate) }
        return ["keyId": keyID, "teamId": teamID, "bundleId": bundleID, "environment": environment.rawValue]
    }

    package func credentials(appID: String, revision: Int) -> ProviderCredentials {
        .apns(APNsCredentials(
            appID: appID, bundleID: bundleID, environment: environment,
            authentication: certificate.map { .certificate(certificatePEM: $0.certificatePEM, privateKeyPEM: $0.privateKeyPEM) }
                ?? .token(privateKeyPEM: privateKey, keyID: keyID, teamID: teamID),
            revision: revision))
    }
}

/// FCM credentials: the fields of a Google service account JSON that sending needs.
package struct StoredFCMCredentials: Sendable, Codable {
    package var projectID: String
    package var clientEmail: String
    package var privateKey: String
    package var tokenURI: String

    package enum CodingKeys: String, CodingKey {
        case projectID = "project_id", clientEmail = "client_email", privateKey = "private_key", tokenURI = "token_uri", type
    }

    /// Reads a service account JSON as Google issues it (other fields are ignored: the file is
    /// Google's, and uploaded as is).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decodeIfPresent(String.self, forKey: .type)
        try check(type == nil || type == "service_account", .type, c, "must be \"service_account\": upload the service account key file from the Firebase console")
        projectID = try c.decode(String.self, forKey: .projectID)
        clientEmail = try c.decode(String.self, forKey: .clientEmail)
        privateKey = try c.decode(String.self, forKey: .privateKey)
        tokenURI = try c.decodeIfPresent(String.self, forKey: .tokenURI) ?? Self.googleTokenURI
        try check(!projectID.isEmpty, .projectID, c, "must be the Firebase project ID")
        try check(clientEmail.contains("@"), .clientEmail, c, "must be the service account's email")
        try check(privateKey.contains("-----BEGIN PRIVATE KEY-----"), .privateKey, c, "must be the service account's PEM private key")
        try check(tokenURI.hasPrefix("https://"), .tokenURI, c, "must be an https URL")
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("service_account", forKey: .type)
        try c.encode(projectID, forKey: .projectID)
        try c.encode(clientEmail, forKey: .clientEmail)
        try c.encode(privateKey, forKey: .privateKey)
        try c.encode(tokenURI, forKey: .tokenURI)
    }

    package var summary: [String: String] {
        ["projectId": projectID, "clientEmail": clientEmail]
    }

    /// Google's OAuth token endpoint, the only `token_uri` a service account may name unless the
    /// operator set a token URL of their own (`--fcm-token-url`).
    package static let googleTokenURI = "https://oauth2.googleapis.com/token"

    /// The credentials for the sender. The token endpoint is always Google's (an operator's
    /// `--fcm-token-url` replaces it inside the sender): a tenant's `token_uri` never decides
    /// where the server connects, even one stored before uploads were checked.
    package func credentials(appID: String, revision: Int) -> ProviderCredentials {
        .fcm(FCMCredentials(
            appID: appID, projectID: projectID, clientEmail: clientEmail, privateKeyPEM: privateKey, tokenURI: Self.googleTokenURI,
            revision: revision))
    }
}
