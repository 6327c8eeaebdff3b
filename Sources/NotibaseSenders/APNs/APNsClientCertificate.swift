import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// An APNs push certificate and its private key, checked as an upload is: the certificate parses,
/// the key is the certificate's, and the certificate's validity is read (whether it has expired is
/// the caller's to judge, against its own clock). Both kept as PEM, the form the sender presents
/// over TLS (`APNsCredentials.Authentication.certificate`).
package struct APNsClientCertificate: Sendable, Hashable {
    /// The certificate, PEM.
    package var certificatePEM: String
    /// Its private key, PEM (PKCS#8 when it came from a PKCS#12 file).
    package var privateKeyPEM: String
    /// The end of its validity (`notAfter`), in milliseconds since 1970.
    package var expiresAt: Int
    /// Its subject's common name (Apple's is "Apple Push Services: <bundle ID>"), if it has one.
    package var commonName: String?

    /// What is wrong with an uploaded certificate, and which part.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The part: the certificate, its key, or the PKCS#12 file or its password.
        package enum Part: Sendable, Equatable { case certificate, key, pkcs12, password }
        package var part: Part
        package var message: String
        package var description: String { message }
    }

    /// A certificate and key given as PEM text.
    package init(certificatePEM: String, privateKeyPEM: String) throws(Problem) {
        guard let x509 = Self.readCertificate(certificatePEM) else {
            throw Problem(part: .certificate, message: "must be the push certificate in PEM, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----")
        }
        defer { X509_free(x509) }
        guard let key = try? SigningKey.anyKey(pem: privateKeyPEM) else {
            throw Problem(part: .key, message: "must be the certificate's private key in PEM (-----BEGIN PRIVATE KEY-----, or the RSA or EC form), unencrypted")
        }
        try self.init(x509, key: key, certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
    }

    /// A certificate and key from a PKCS#12 file (`.p12`, as Keychain Access exports it) and its
    /// password.
    package init(pkcs12 der: [UInt8], password: String) throws(Problem) {
        Self.loadLegacyAlgorithms()
        OpenSSLFailure.clearQueue()
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var start = buffer.baseAddress
            return d2i_PKCS12(nil, &start, buffer.count)
        }
        guard let parsed else {
            OpenSSLFailure.clearQueue()
            throw Problem(part: .pkcs12, message: "must be a PKCS#12 (.p12) file in base64, holding the push certificate and its key")
        }
        defer { PKCS12_free(parsed) }
        var keyHandle: OpaquePointer?
        var x509Handle: OpaquePointer?
        guard PKCS12_parse(parsed, password, &keyHandle, &x509Handle, nil) == 1 else {
            OpenSSLFailure.clearQueue()
            throw Problem(part: .password, message: "does not open the PKCS#12 file: give the password it was exported with")
        }
        guard let x509 = x509Handle, let keyHandle else {
            if let x509Handle { X509_free(x509Handle) }
            if let keyHandle { EVP_PKEY_free(keyHandle) }
            throw Problem(part: .pkcs12, message: "must hold both the push certificate and its private key (export both from Keychain Access)")
        }
        defer { X509_free(x509) }
        defer { EVP_PKEY_free(keyHandle) }
        guard let certificatePEM = Self.pem({ PEM_write_bio_X509($0, x509) }),
              let privateKeyPEM = Self.pem({ PEM_write_bio_PrivateKey($0, keyHandle, nil, nil, 0, nil, nil) }),
              let key = try? SigningKey.anyKey(pem: privateKeyPEM) else {
            throw Problem(part: .pkcs12, message: "holds a certificate or key that cannot be read")
        }
        try self.init(x509, key: key, certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
    }

    private init(_ x509: OpaquePointer, key: SigningKey, certificatePEM: String, privateKeyPEM: String) throws(Problem) {
        guard key.use({ X509_check_private_key(x509, $0) }) == 1 else {
            OpenSSLFailure.clearQueue()
            throw Problem(part: .key, message: "is not the private key of this certificate")
        }
        var tm = tm()
        guard let notAfter = X509_get0_notAfter(x509), ASN1_TIME_to_tm(notAfter, &tm) == 1 else {
            OpenSSLFailure.clearQueue()
            throw Problem(part: .certificate, message: "has no readable expiry date")
        }
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        expiresAt = Int(timegm(&tm)) * 1000
        commonName = Self.commonName(x509)
    }

    private static func readCertificate(_ pem: String) -> OpaquePointer? {
        OpenSSLFailure.clearQueue()
        let x509 = readMemoryBIO(pem) { PEM_read_bio_X509($0, nil, nil, nil) }
        OpenSSLFailure.clearQueue()
        return x509
    }

    /// What `write` writes into a memory BIO, as text.
    private static func pem(_ write: (OpaquePointer) -> Int32) -> String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return nil }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = chunk.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
            guard read > 0 else { break }
            text += chunk[..<Int(read)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func commonName(_ x509: OpaquePointer) -> String? {
        guard let name = X509_get_subject_name(x509) else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let length = X509_NAME_get_text_by_NID(name, NID_commonName, &buffer, Int32(buffer.count))
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Keychain Access has long encrypted `.p12` files with RC2 and 3DES, which OpenSSL 3 reads
    /// only with its legacy provider (besides the default one). Loaded once, if installed.
    private static func loadLegacyAlgorithms() {
        _ = legacyLoaded
    }

    private static let legacyLoaded: Bool = {
        let legacy = OSSL_PROVIDER_load(nil, "legacy")
        let standard = OSSL_PROVIDER_load(nil, "default")
        OpenSSLFailure.clearQueue()
        return legacy != nil && standard != nil
    }()
}
