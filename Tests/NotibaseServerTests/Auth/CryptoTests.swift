import NotibaseSenders
import Testing
@testable import NotibaseServer

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
