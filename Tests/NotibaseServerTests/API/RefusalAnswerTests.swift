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

/// What the domain refuses is answered as the API always answered it: the kind's status, the
/// code, the message and the field, and a 429's limit and `Retry-After` (issue 45: services and
/// Auth/ throw a ``Refusal``, the API maps it).
@Suite("Refusal answers")
struct RefusalAnswerTests {
    @Test(arguments: [
        (Refusal.Kind.invalid, 400), (.unauthorized, 401), (.forbidden, 403), (.notFound, 404), (.conflict, 409), (.tooLarge, 413),
        (.unprocessable, 422), (.tooMany(), 429),
    ])
    func eachKindHasItsStatus(kind: Refusal.Kind, status: Int) throws {
        let response = APIError(Refusal(kind: kind, code: "some_code", message: "do this", field: "name")).response
        #expect(response.status == status)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text == #"{"error":{"code":"some_code","field":"name","message":"do this"}}"#)
        #expect(!response.headers.contains { $0.name == "Retry-After" })
    }

    @Test func tooManySaysWhichLimitAndHowLongToWait() throws {
        let quota = APIError(Refusal(kind: .tooMany(limit: "messagesPerMinute", retryAfter: 7), code: "quota_exceeded", message: "wait", field: nil)).response
        #expect(quota.status == 429)
        #expect(quota.headers.contains { $0.name == "Retry-After" && $0.value == "7" })
        #expect(String(decoding: quota.body, as: UTF8.self) == #"{"error":{"code":"quota_exceeded","limit":"messagesPerMinute","message":"wait"}}"#)
    }

    /// The rate limiter and the message quota, which a service calls, refuse with a wait.
    @Test func theLimitersRefuseWithTheWait() async throws {
        let limiter = RateLimiter(rates: [.server: 1])
        let caller = Caller(kind: .server, appID: "app")
        try limiter.admit(caller, from: nil)
        try limiter.admit(caller, from: nil)
        let limited = try #require(throws: Refusal.self) { try limiter.admit(caller, from: nil) }
        #expect(limited.code == "rate_limited")
        guard case .tooMany(nil, let wait?) = limited.kind else { Issue.record("\(limited.kind)"); return }
        #expect(wait >= 1)

        let quota = MessageQuota(perMinute: 1)
        _ = try await quota.charging("app") { ((), replayed: false) }
        do {
            _ = try await quota.charging("app") { ((), replayed: false) }
            Issue.record("a second message in the minute was charged")
        } catch let refusal as Refusal {
            #expect(refusal.code == "quota_exceeded")
            guard case .tooMany("messagesPerMinute", let wait?) = refusal.kind else { Issue.record("\(refusal.kind)"); return }
            #expect(wait >= 1)
        }
    }
}
