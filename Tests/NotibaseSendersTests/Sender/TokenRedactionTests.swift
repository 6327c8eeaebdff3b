import Testing
import NotibaseSenders

@Suite("Device tokens in logs")
struct TokenRedactionTests {
    @Test("a token is shortened to its first 8 characters; a short one is hidden entirely")
    func shorten() {
        #expect(TokenRedaction.shorten(String(repeating: "ab", count: 32)) == "abababab…")
        #expect(TokenRedaction.shorten("short") == "…")
    }
}
