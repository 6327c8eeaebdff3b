import Foundation

/// A push certificate made by `openssl` for a test: a self-signed RSA certificate for client
/// authentication (as Apple's push certificates are), its key, the same pair as a PKCS#12 file,
/// and a key that is not its own. Kept in a temporary directory that lives as long as the value.
public struct TestCertificate: Sendable {
    /// Where the files are: `cert.pem` (also the certificate authority a peer trusts for it),
    /// `key.pem`, `cert.p12`, `legacy.p12`, `other-key.pem`.
    public let directory: TemporaryDirectory
    public let certificatePEM: String
    public let keyPEM: String
    /// A key of another pair.
    public let otherKeyPEM: String
    /// The PKCS#12 file (OpenSSL 3's default AES encryption), in base64.
    public let pkcs12Base64: String
    /// The same, encrypted with the RC2 and 3DES that Keychain Access has long used, in base64.
    public let legacyPKCS12Base64: String
    /// The PKCS#12 files' password.
    public static let password = "p12-secret"

    /// `cert.pem`'s path.
    public var certificateFile: String { directory.url.appendingPathComponent("cert.pem").path }

    /// Makes one, valid from now for `days` days.
    public init(commonName: String = "Apple Push Services: com.example.app", days: Int = 3650) throws {
        let directory = TemporaryDirectory("notibase-certificate")
        self.directory = directory
        let path = { (name: String) in directory.url.appendingPathComponent(name).path }
        let commands: [[String]] = [
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("key.pem"), "-out", path("cert.pem"), "-days", String(days),
             "-subj", "/CN=\(commonName)", "-addext", "extendedKeyUsage=clientAuth"],
            ["pkcs12", "-export", "-in", path("cert.pem"), "-inkey", path("key.pem"), "-out", path("cert.p12"), "-passout", "pass:\(Self.password)"],
            ["pkcs12", "-export", "-legacy", "-in", path("cert.pem"), "-inkey", path("key.pem"), "-out", path("legacy.p12"), "-passout", "pass:\(Self.password)"],
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("other-key.pem")],
        ]
        for arguments in commands {
            let (status, output) = try runToCompletion("/usr/bin/openssl", arguments)
            guard status == 0 else { throw ChildProcessError(message: "openssl \(arguments[0]) failed (\(status)): \(output)") }
        }
        certificatePEM = try String(contentsOfFile: path("cert.pem"), encoding: .utf8)
        keyPEM = try String(contentsOfFile: path("key.pem"), encoding: .utf8)
        otherKeyPEM = try String(contentsOfFile: path("other-key.pem"), encoding: .utf8)
        pkcs12Base64 = try Data(contentsOf: URL(fileURLWithPath: path("cert.p12"))).base64EncodedString()
        legacyPKCS12Base64 = try Data(contentsOf: URL(fileURLWithPath: path("legacy.p12"))).base64EncodedString()
    }
}
