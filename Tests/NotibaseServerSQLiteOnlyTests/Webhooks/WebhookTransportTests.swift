import Foundation
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
import NotibaseTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
@testable import NotibaseServerTestSupport
#endif

/// The webhook transport's address policy, without a network: what may be registered, what is
/// refused and why, and the same policy again at connect time (DNS rebinding). It says nothing
/// about the store, so it is not run again on PostgreSQL.
@Suite struct WebhookTransportTests {
    /// Names the tests resolve: a public name, one that also resolves to a private address, and one
    /// that resolves to nothing.
    private static let resolver = ScriptedResolver([
        "hooks.example.com": [["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]],
        "split.example.com": [["93.184.215.14", "10.0.0.5"]],
        "internal.example.com": [["::ffff:192.168.0.10"]],
    ])

    private static func transport(allowInsecure: Bool = false) -> HTTPSWebhookTransport {
        HTTPSWebhookTransport(allowInsecure: allowInsecure, resolver: resolver)
    }

    /// The thread every exchange runs on has a name of its own: its time is told from Swift's
    /// shared threads' in `top -H`, `perf` and script/bench-delivery's CPU by thread.
    @Test func theExchangesRunOnAThreadNamedForThem() async throws {
        let poller = HTTPClient.webhooks
        // A bound against a hang only: the thread says where it is once it runs.
        let deadline = ContinuousClock.now + .seconds(20)
        while poller.task.withLock({ $0 }) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let task = try #require(poller.task.withLock { $0 })
        let name = try String(contentsOfFile: task + "/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(name == "nb-webhook-io")
    }

    @Test(arguments: [
        ("http://hooks.example.com/hook", WebhookURLRefusal.Reason.notHTTPS),
        ("ftp://hooks.example.com/hook", .notHTTPS),
        ("hooks.example.com/hook", .malformed),
        ("https://alice:hunter2@hooks.example.com/hook", .malformed),
        ("https://alice@hooks.example.com/hook", .malformed),
        ("https://hooks.example.com/hook?token=" + String(repeating: "x", count: 2_000), .malformed),
        ("https://hooks.example.com/a hook", .malformed),
        ("https://hooks.example.com/hook\r\nX-Injected: 1", .malformed),
        ("https:///hook", .malformed),
        ("https://hooks.example.com:0/hook", .malformed),
        ("https://hooks.example.com:65536/hook", .malformed),
        ("https://[::1/hook", .malformed),
        ("https://nowhere.example.com/hook", .unresolvable),
    ])
    func refusesWhatIsNotAnHTTPSURLWithAHost(url: String, reason: WebhookURLRefusal.Reason) async throws {
        let refusal = try #require(await Self.transport().refusal(of: url, appID: "app"))
        #expect(refusal.reason == reason)
        #expect(!refusal.detail.contains("hunter2") && !refusal.detail.contains("alice") && !refusal.detail.contains("xxxx"))
    }

    @Test(arguments: [
        // loopback
        "https://127.0.0.1/hook", "https://127.1.2.3/hook", "https://[::1]/hook",
        // private
        "https://10.1.2.3/hook", "https://172.16.0.1/hook", "https://172.31.255.255/hook", "https://192.168.1.1/hook",
        "https://[fc00::1]/hook", "https://[fd12:3456::1]/hook",
        // link-local and the cloud metadata addresses
        "https://169.254.1.1/hook", "https://169.254.169.254/latest/meta-data/", "https://[fe80::1]/hook", "https://[fd00:ec2::254]/hook",
        // multicast, unspecified, broadcast, carrier-grade NAT, 0/8, reserved
        "https://224.0.0.1/hook", "https://239.255.255.250/hook", "https://[ff02::1]/hook",
        "https://0.0.0.0/hook", "https://[::]/hook", "https://255.255.255.255/hook",
        "https://100.64.0.1/hook", "https://100.127.255.254/hook", "https://0.1.2.3/hook", "https://240.0.0.1/hook",
        // IPv4-mapped IPv6, NAT64 and 6to4 of forbidden addresses
        "https://[::ffff:127.0.0.1]/hook", "https://[::ffff:10.0.0.1]/hook", "https://[::ffff:169.254.169.254]/hook",
        "https://[64:ff9b::a9fe:a9fe]/hook", "https://[2002:7f00:1::]/hook",
        // names: any resolved address that is not public is enough
        "https://split.example.com/hook?key=s3cret", "https://internal.example.com:8443/hook?key=s3cret",
    ])
    func refusesEveryAddressThatIsNotPublic(url: String) async throws {
        let refusal = try #require(await Self.transport().refusal(of: url, appID: "app"))
        #expect(refusal.reason == .forbiddenAddress)
        #expect(!refusal.detail.contains("s3cret") && !refusal.detail.contains("/hook"))
        // And when a batch is posted there, nothing is sent.
        let attempt = await Self.transport().post(WebhookRequest(appID: "app", url: url, headers: [], body: [], timeout: .seconds(5)))
        #expect(attempt.outcome == .refused(refusal))
    }

    /// A refusal names the host and the kind of address, never the address a name resolves to:
    /// any server key could otherwise map the names of the network the server sits in (issue 43).
    /// Loopback and private addresses name the development setting that allows them.
    @Test func theDetailNamesTheHostAndTheKindOfAddressNotTheAddress() async throws {
        let refusal = try #require(await Self.transport().refusal(of: "https://split.example.com/hook", appID: "app"))
        #expect(refusal.detail == "the host 'split.example.com' resolves to a private address, not a public one (--webhook-allow-insecure (NOTIBASE_WEBHOOK_ALLOW_INSECURE=on) allows it, for development only)")
        let mapped = try #require(await Self.transport().refusal(of: "https://internal.example.com/hook", appID: "app"))
        #expect(!mapped.detail.contains("192.168") && mapped.detail.contains("private"))
        let metadata = try #require(await Self.transport().refusal(of: "https://169.254.169.254/", appID: "app"))
        #expect(metadata.detail == "the host 169.254.169.254 is a cloud metadata address, not a public one")
        let http = try #require(await Self.transport().refusal(of: "http://hooks.example.com/hook", appID: "app"))
        #expect(http.detail.contains("--webhook-allow-insecure"))
    }

    /// A name that does not resolve and one whose lookup does not answer in time read alike.
    @Test func aNameThatDoesNotResolveSaysOnlyThat() async throws {
        let nowhere = await Self.transport().refusal(of: "https://nowhere.example.com/hook", appID: "app")
        let silent = HTTPSWebhookTransport(allowInsecure: false, resolver: SilentResolver())
        let waited = await silent.refusal(of: "https://nowhere.example.com/hook", appID: "app")
        #expect(nowhere == waited)
        #expect(nowhere?.detail == "the host 'nowhere.example.com' does not resolve")
    }

    @Test(arguments: [
        "https://hooks.example.com/hook", "https://HOOKS.example.com:8443/hook?a=1", "https://93.184.215.14/hook",
        "https://[2606:4700:4700::1111]/hook", "https://172.32.0.1/hook", "https://100.128.0.1/hook", "https://11.0.0.1/hook",
    ])
    func acceptsPublicHTTPSEndpoints(url: String) async {
        #expect(await Self.transport().refusal(of: url, appID: "app") == nil)
    }

    @Test func allowInsecureAllowsHTTPLoopbackAndPrivateButNeverTheMetadataAddress() async throws {
        let insecure = Self.transport(allowInsecure: true)
        #expect(await insecure.refusal(of: "http://127.0.0.1:8080/hook", appID: "app") == nil)
        #expect(await insecure.refusal(of: "https://10.0.0.1/hook", appID: "app") == nil)
        #expect(await insecure.refusal(of: "https://internal.example.com/hook", appID: "app") == nil)
        #expect(await insecure.refusal(of: "http://169.254.169.254/", appID: "app")?.reason == .forbiddenAddress)
        #expect(await insecure.refusal(of: "http://[fd00:ec2::254]/", appID: "app")?.reason == .forbiddenAddress)
        #expect(await insecure.refusal(of: "ftp://127.0.0.1/", appID: "app")?.reason == .notHTTPS)
        #expect(await Self.transport().refusal(of: "http://127.0.0.1:8080/hook", appID: "app")?.reason == .notHTTPS)
    }

    /// A name that resolved to a public address at registration and to loopback at connect time:
    /// the attempt is refused, the name was looked up once for it, and nothing connected.
    @Test func dnsRebindingIsRefusedAtConnectTimeWithoutConnecting() async throws {
        let listener = try LoopbackListener()
        let resolver = ScriptedResolver(["rebind.example.com": [["93.184.215.14"], ["127.0.0.1"]]])
        let transport = HTTPSWebhookTransport(allowInsecure: false, resolver: resolver)
        let url = "https://rebind.example.com:\(listener.port)/hook"
        #expect(await transport.refusal(of: url, appID: "app") == nil)
        let attempt = await transport.post(WebhookRequest(appID: "app", url: url, headers: [], body: Array("{}".utf8), timeout: .seconds(2)))
        guard case .refused(let refusal) = attempt.outcome else {
            Issue.record("expected a refusal, got \(attempt.outcome)")
            return
        }
        #expect(refusal.reason == .forbiddenAddress)
        #expect(refusal.detail.contains("loopback") && !refusal.detail.contains("127.0.0.1"))
        #expect(resolver.lookups(of: "rebind.example.com") == 2)
        #expect(listener.pendingConnections() == 0)
    }

    /// The control for the test above: with loopback allowed, the same post does reach the
    /// listener, so "nothing connected" there means something.
    @Test func theListenerSeesAConnectionWhenLoopbackIsAllowed() async throws {
        let listener = try LoopbackListener()
        let resolver = ScriptedResolver(["rebind.example.com": [["127.0.0.1"]]])
        let transport = HTTPSWebhookTransport(allowInsecure: true, resolver: resolver)
        let attempt = await transport.post(WebhookRequest(appID: "app", url: "https://rebind.example.com:\(listener.port)/hook", headers: [], body: [], timeout: .milliseconds(500)))
        #expect(attempt.outcome == .timedOut)  // the listener never speaks TLS
        #expect(listener.pendingConnections() == 1)
        #expect(resolver.lookups(of: "rebind.example.com") == 1)
    }

    /// A header value that would end the head and start another request is never written: the
    /// attempt fails before it connects.
    @Test func aHeaderThatWouldSplitTheRequestIsNotSent() async {
        let listener = try? LoopbackListener()
        let port = listener?.port ?? 9
        let transport = Self.transport(allowInsecure: true)
        let attempt = await transport.post(WebhookRequest(
            appID: "app", url: "http://127.0.0.1:\(port)/hook", headers: [("webhook-id", "msg_1\r\n\r\nPOST /other HTTP/1.1")], body: [], timeout: .seconds(2)))
        guard case .failed(let reason) = attempt.outcome else {
            Issue.record("expected a failure, got \(attempt.outcome)")
            return
        }
        #expect(reason.contains("line break"))
        #expect(listener?.pendingConnections() == 0)
    }

    @Test func retryAfterInSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:51:37 GMT", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("Thu, 01 Jan 2026 00:00:00 GMT", now: Date(timeIntervalSince1970: 1_767_225_600 - 30)) == .seconds(30))
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("-5", now: now) == nil)
    }

    @Test func theAnswerPrefixIsTextWithoutControlCharacters() {
        #expect(HTTPSWebhookTransport.text(Array("ok\r\n\u{1B}[31mred\tx".utf8) + [0xFF]) == "ok\n[31mredx\u{FFFD}")
    }
}

/// A TCP listener on a loopback port that never accepts: `pendingConnections` counts the
/// connections waiting in its queue.
private final class LoopbackListener {
    let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }

    /// Accepts (and closes) every connection waiting now.
    func pendingConnections() -> Int {
        var count = 0
        while case let connection = accept(fd, nil, nil), connection >= 0 {
            close(connection)
            count += 1
        }
        return count
    }
}
