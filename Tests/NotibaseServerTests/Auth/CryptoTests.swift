import NotibaseSenders
import Testing
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
@testable import NotibaseServerTestSupport

@Suite("Crypto")
struct CryptoTests {
    /// Stored key hashes must stay SHA-256 exactly (FIPS 180-2 test vectors).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256MatchesTheStandardVectors(input: String, digest: String) throws {
        #expect(try Crypto.sha256(Array(input.utf8)).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() == digest)
    }

    /// Receipt signatures and identity tokens must stay HMAC-SHA256 exactly (RFC 4231 test cases
    /// 1, 2 and 6), one MAC at a time or under a key made ready once and used from many threads at
    /// once (``HMACKey``, which every worker's receipt signature uses).
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ] as [([UInt8], String, String)])
    func hmacMatchesTheStandardVectorsOneAtATimeAndUnderAReadyKey(key: [UInt8], message: String, mac: String) async throws {
        #expect(Self.hex(try Crypto.hmacSHA256(key: key, Array(message.utf8))) == mac)
        let ready = try Crypto.hmacKey(key)
        let macs = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<64 { group.addTask { (try? ready.mac(Array(message.utf8))).map(Self.hex) } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(macs == Array(repeating: mac, count: 64))
        #expect(Self.hex(try ready.mac(Array("other".utf8))) == Self.hex(try Crypto.hmacSHA256(key: key, Array("other".utf8))))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func identifiersMadeTogetherAreDistinctAndCarryTheirOwnTimes() throws {
        let times = [1_800_000_000_000, 1_800_000_000_001, 1_800_000_000_000]
        let ids = try Identifier.make(times: times)
        #expect(Set(ids).count == 3 && ids.allSatisfy(Identifier.isWellFormed))
        #expect(ids[0].prefix(13) == ids[2].prefix(13) && ids[0].prefix(13) != ids[1].prefix(13))
        // UUIDv7: the time in milliseconds first, then version 7 and the RFC 4122 variant.
        #expect(ids[0].hasPrefix("01a3185c-5000-7") && ids[1].hasPrefix("01a3185c-5001-7"))
        #expect(ids.allSatisfy { "89ab".contains(Array($0)[19]) })
    }

    /// A sealed credential that was changed (or copied to another app) does not open, and the
    /// failure says which operation OpenSSL refused, without the key or the plaintext; the error
    /// queue is left empty for the next call.
    @Test(arguments: ["tampered", "other context"])
    func aSealedValueThatWasChangedDoesNotOpen(change: String) throws {
        let box = try SecretBox(key: Array(repeating: 7, count: 32))
        var sealed = try box.seal(Array("secret-credential".utf8), context: "apns:app-1")
        if change == "tampered" { sealed[20] ^= 1 }
        let context = change == "tampered" ? "apns:app-1" : "apns:app-2"
        #expect { try box.open(sealed, context: context) } throws: { error in
            guard let failure = error as? OpenSSLFailure else { return false }
            return failure.operation == "AES-256-GCM decryption"
                && "\(failure)".hasPrefix("OpenSSL failed at AES-256-GCM decryption")
                && !"\(failure)".contains("secret-credential")
        }
        #expect(OpenSSLFailure.queueIsEmpty)
    }
}
