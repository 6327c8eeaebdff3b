import Foundation
import NotibaseCore
package import NotibaseSenders

/// Certificate authentication for APNs: a push certificate and its key, uploaded as PEM
/// (`certificate`, `certificateKey`) or as a PKCS#12 file (`pkcs12` in base64, `pkcs12Password`),
/// and sealed as PEM either way.
extension StoredAPNsCredentials {
    /// How long before a certificate expires it is said to expire soon (`expiresSoon`, a warning
    /// in the log).
    package static let expiryWarning = 30 * 24 * 3_600_000

    /// Whether a certificate that ends at `expiresAt` expires within ``expiryWarning`` of `now`.
    package static func expiresSoon(_ expiresAt: Int, now: Int) -> Bool {
        expiresAt - now <= expiryWarning
    }

    /// The environment field: `sandbox`, `production`, or `development` (read as `sandbox`).
    package static func environment(_ c: KeyedDecodingContainer<CodingKeys>) throws -> APNsEnvironment {
        let name = try c.decode(String.self, forKey: .environment)
        guard let environment = APNsEnvironment(name: name) else {
            throw DecodingError.dataCorruptedError(forKey: .environment, in: c, debugDescription: APNsEnvironment.namesExplained)
        }
        return environment
    }

    /// The certificate of a body that gives one, checked (it parses, the key is its own); nil for
    /// a token key. Whether it has expired is checked by the upload (``checkNotExpired(now:)``),
    /// not here: sealed credentials are read with this too.
    package static func certificate(_ c: KeyedDecodingContainer<CodingKeys>) throws -> APNsClientCertificate? {
        let pem = try c.decodeIfPresent(String.self, forKey: .certificate)
        let pkcs12 = try c.decodeIfPresent(String.self, forKey: .pkcs12)
        func refuse(_ key: CodingKeys, _ message: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: message)
        }
        guard pem != nil || pkcs12 != nil else {
            if c.contains(.certificateKey) { throw refuse(.certificateKey, "is the key of a certificate: give the certificate too, or a .p8 key (keyId, teamId, privateKey) instead") }
            if c.contains(.pkcs12Password) { throw refuse(.pkcs12Password, "is the password of a PKCS#12 file: give pkcs12 too") }
            return nil
        }
        for key in [CodingKeys.keyID, .teamID, .privateKey] where c.contains(key) {
            throw refuse(key, "belongs to a .p8 key: give either a .p8 key (keyId, teamId, privateKey) or a certificate, not both")
        }
        if pem != nil, pkcs12 != nil {
            throw refuse(.pkcs12, "give the certificate as PEM (certificate and certificateKey) or as PKCS#12 (pkcs12 and pkcs12Password), not both")
        }
        do {
            if let pem {
                guard let key = try c.decodeIfPresent(String.self, forKey: .certificateKey) else {
                    throw refuse(.certificateKey, "is required with certificate: the certificate's private key in PEM")
                }
                return try APNsClientCertificate(certificatePEM: pem, privateKeyPEM: key)
            }
            guard let der = Data(base64Encoded: pkcs12 ?? "", options: .ignoreUnknownCharacters), !der.isEmpty else {
                throw refuse(.pkcs12, "must be the PKCS#12 (.p12) file in base64")
            }
            let password = try c.decodeIfPresent(String.self, forKey: .pkcs12Password) ?? ""
            return try APNsClientCertificate(pkcs12: Array(der), password: password)
        } catch let problem as APNsClientCertificate.Problem {
            let key: CodingKeys = switch problem.part {
            case .certificate: pem != nil ? .certificate : .pkcs12
            case .key: pem != nil ? .certificateKey : .pkcs12
            case .pkcs12: .pkcs12
            case .password: .pkcs12Password
            }
            throw refuse(key, problem.message)
        }
    }

    /// Refuses, at upload, a certificate that has already expired (refused naming the field it came in).
    package func checkNotExpired(now: Int, uploadedAs body: [UInt8]) throws {
        guard let certificate, certificate.expiresAt <= now else { return }
        let field = body.contains(subsequence: Array(#""pkcs12""#.utf8)) ? "pkcs12" : "certificate"
        throw Refusal.invalid(field, "expired on \(certificate.expiresAt.timestamp): renew the push certificate in the Apple Developer account and upload the new one")
    }

    /// The non-secret part of certificate credentials, shown by the API.
    package func certificateSummary(_ certificate: APNsClientCertificate) -> [String: String] {
        var summary = ["authentication": "certificate", "bundleId": bundleID, "environment": environment.rawValue, "expiresAt": certificate.expiresAt.timestamp]
        summary["subject"] = certificate.commonName
        return summary
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bundleID, forKey: .bundleID)
        try c.encode(environment.rawValue, forKey: .environment)
        if let certificate {
            try c.encode(certificate.certificatePEM, forKey: .certificate)
            try c.encode(certificate.privateKeyPEM, forKey: .certificateKey)
        } else {
            try c.encode(keyID, forKey: .keyID)
            try c.encode(teamID, forKey: .teamID)
            try c.encode(privateKey, forKey: .privateKey)
        }
    }
}

private extension [UInt8] {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<($0 + subsequence.count)].elementsEqual(subsequence) }
    }
}
