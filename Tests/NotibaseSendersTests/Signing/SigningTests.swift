import Foundation
import Testing
import NotibaseCore
@testable import NotibaseSenders

@Suite("Signing: keys, base64url, errors without key material")
struct SigningTests {
    @Test("base64url round-trips every length without padding", arguments: 0..<9)
    func base64URL(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 250) }
        let text = Base64URL.encode(bytes)
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        #expect(Base64URL.decode(text) == bytes)
        #expect(text == Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
    }

    @Test("a .p8 key reads back from its PKCS#8 PEM and signs 64-byte ES256 signatures")
    func es256() throws {
        let pem = try SigningKey.generate(.es256).privateKeyPEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let key = try SigningKey(pem: pem, algorithm: .es256)
        #expect(try key.sign(Array("hello".utf8)).count == 64)
    }

    @Test("an RSA key signs 256-byte RS256 signatures")
    func rs256() throws {
        let key = try SigningKey(pem: try SigningKey.generate(.rs256).privateKeyPEM(), algorithm: .rs256)
        #expect(try key.sign(Array("hello".utf8)).count == 256)
    }

    @Test("the wrong kind of key is refused with a description saying what was expected")
    func wrongKind() throws {
        let rsa = try SigningKey.generate(.rs256).privateKeyPEM()
        #expect { try SigningKey(pem: rsa, algorithm: .es256) } throws: { error in
            "\(error)".contains("P-256") && !"\(error)".contains(rsa.dropFirst(40).prefix(20))
        }
    }

    @Test("an unreadable key's error never contains the key text")
    func unreadable() {
        let secret = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSECRETSECRET\n-----END PRIVATE KEY-----\n"
        #expect { try SigningKey(pem: secret, algorithm: .es256) } throws: { error in
            !"\(error)".contains("SECRET") && "\(error)".contains("PEM")
        }
    }

    @Test("OpenSSL's failure names what it was doing and what OpenSSL said, and its error queue is left empty")
    func openSSLFailure() {
        let garbled = "-----BEGIN PRIVATE KEY-----\nnot*base64*at*all\n-----END PRIVATE KEY-----\n"
        let error = #expect(throws: SigningError.self) { try SigningKey(pem: garbled, algorithm: .es256) }
        #expect(error?.library?.operation == "reading a PEM private key")
        #expect(error?.library?.errors.isEmpty == false, "OpenSSL's own reasons are kept")
        #expect(error.map { "\($0)".contains("OpenSSL: ") } == true)
        #expect(OpenSSLFailure.queueIsEmpty, "nothing is left for the next OpenSSL call to misread")
    }

    @Test("reading a good key leaves OpenSSL's error queue empty")
    func readingLeavesNoErrors() throws {
        let pem = try SigningKey.generate(.es256).privateKeyPEM()
        _ = try SigningKey(pem: pem, algorithm: .es256)
        #expect(OpenSSLFailure.queueIsEmpty)
    }
}
