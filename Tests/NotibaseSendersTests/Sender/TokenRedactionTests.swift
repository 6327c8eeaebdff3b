import Testing
import NotibaseSenders

@Suite("Device tokens in logs")
struct TokenRedactionTests {
    @Test("a token is shortened to its first 6 and last 4 characters; a short one is hidden entirely")
    func shorten() {
        #expect(TokenRedaction.shorten(String(repeating: "ab", count: 31) + "cd") == "ababab…abcd")
        #expect(TokenRedaction.shorten("short") == "…")
    }
}
