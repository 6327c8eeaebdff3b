import CCurl
import COpenSSL
import Foundation
import NotibaseDomain

/// One request on a libcurl easy handle, made, run and finished on its client's thread: the
/// options that hold it to its checked address, deadline and bounds, and what its callbacks
/// collect of the answer. The callbacks are C functions given the transfer as their context.
package final class HTTPTransfer {
    package let easy: OpaquePointer = curl_easy_init()!
    private let request: HTTPClient.Request
    private let continuation: CheckedContinuation<HTTPClient.Ending, Never>
    private var lists: [UnsafeMutablePointer<curl_slist>?] = []
    private let errors = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// The bytes of the heads read (interim heads' included).
    private var headBytes = 0
    /// The body read so far, once a final head is whole (libcurl keeps its status and headers).
    private var body: [UInt8]?
    /// Set by a callback that ended the transfer: a head too long, a peer not admitted.
    private var ending: HTTPClient.Outcome?
    /// Whether a connection was made or taken (and its peer checked).
    private var connected = false

    package init(_ request: HTTPClient.Request, continuation: CheckedContinuation<HTTPClient.Ending, Never>) {
        self.request = request
        self.continuation = continuation
        errors[0] = 0
        // Rounded up; a deadline already past (the lookup took it) still lets libcurl start.
        setLong(CURLOPT_TIMEOUT_MS, max(1, Int((request.deadline - .now) / .milliseconds(1)) + 1))
        setText(CURLOPT_URL, request.url)
        setText(CURLOPT_PROTOCOLS_STR, request.allowsPlainHTTP ? "http,https" : "https")
        // Only the checked address (any host and port of this one URL go there, on its port): no
        // name is looked up by libcurl, and kept connections are told apart by it.
        let address = request.address.isIPv4 ? "\(request.address)" : "[\(request.address)]"
        setList(CURLOPT_CONNECT_TO, ["::\(address):"])
        setText(CURLOPT_PROXY, "")
        setLong(CURLOPT_PATH_AS_IS, 1)
        setLong(CURLOPT_NOSIGNAL, 1)
        setLong(CURLOPT_MAXAGE_CONN, HTTPClient.idleLimit)
        setLong(CURLOPT_HTTP_VERSION, request.version == .http2 ? Int(CURL_HTTP_VERSION_2TLS) : Int(CURL_HTTP_VERSION_1_1))
        setLong(CURLOPT_PIPEWAIT, request.version == .http2 ? 1 : 0)
        setList(CURLOPT_HTTPHEADER, ["Accept:", "Expect:"] + request.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" })
        if request.method != "GET" || !request.body.isEmpty {
            // The size first, then the copy (a byte more, never sent, gives an empty body an address).
            setLong(CURLOPT_POSTFIELDSIZE, request.body.count)
            (request.body + [0]).withUnsafeBytes { _ = notibase_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
            if request.method != "POST" { setText(CURLOPT_CUSTOMREQUEST, request.method) }
        }
        setTLS()
        notibase_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errors)
        let context = Unmanaged.passUnretained(self).toOpaque()
        for option in [CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_PREREQDATA] { notibase_curl_set_pointer(easy, option, context) }
        notibase_curl_set_write(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            HTTPTransfer.of(context).take(body: UnsafeRawBufferPointer(start: data, count: size * count))
        }
        notibase_curl_set_write(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            HTTPTransfer.of(context).take(headerLine: UnsafeRawBufferPointer(start: data, count: size * count))
        }
        notibase_curl_set_prereq(easy) { context, peer, _, _, _ in
            HTTPTransfer.of(context).admits(peer.map { String(cString: $0) } ?? "") ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
        }
    }

    deinit {
        curl_easy_cleanup(easy)
        for list in lists { curl_slist_free_all(list) }
        errors.deallocate()
    }

    /// TLS 1.2 or later (the only suites offered for 1.2 are its AEAD ones); what a handshake may
    /// cost this side bounded (decision 0036, issue 43): only elliptic-curve key exchange (TLS 1.3,
    /// or 1.2's ECDHE) on X25519, P-256 or P-384, a chain of at most 10 certificates, and no
    /// renegotiation.
    private func setTLS() {
        setText(CURLOPT_SSL_CIPHER_LIST, "ECDHE+AESGCM:ECDHE+CHACHA20")
        setText(CURLOPT_SSL_EC_CURVES, "X25519:P-256:P-384")
        if case .certificateFile(let path) = request.trust { setText(CURLOPT_CAINFO, path) }
        notibase_curl_set_ssl_context(easy) { _, context, _ in
            guard let context else { return CURLE_SSL_CERTPROBLEM }
            SSL_CTX_set_verify_depth(OpaquePointer(context), 10)
            notibase_ssl_ctx_refuse_renegotiation(OpaquePointer(context))
            return CURLE_OK
        }
    }

    /// Resumes the caller with what became of the transfer, `code` being libcurl's. An answer
    /// whole, or cut by the limit, the deadline or the connection's end, is an answer.
    internal func complete(_ code: CURLcode) {
        let answer = body.map { HTTPClient.Answer(status: info(CURLINFO_RESPONSE_CODE), headers: headers(), body: $0) }
        let outcome = ending ?? answer.map { .answered($0) } ?? (code == CURLE_OPERATION_TIMEDOUT ? .timedOut : .failed(reason(code)))
        continuation.resume(returning: HTTPClient.Ending(outcome: outcome, reusedConnection: connected && info(CURLINFO_NUM_CONNECTS) == 0))
    }

    /// The final head's headers, as libcurl keeps them (1xx heads' and trailers apart).
    private func headers() -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        var header: UnsafeMutablePointer<curl_header>?
        while let next = curl_easy_nextheader(easy, UInt32(CURLH_HEADER), -1, header) {
            headers.append((String(cString: next.pointee.name), String(cString: next.pointee.value)))
            header = next
        }
        return headers
    }

    // MARK: The callbacks

    private static func of(_ context: UnsafeMutableRawPointer?) -> HTTPTransfer {
        Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue()
    }

    private func admits(_ peer: String) -> Bool {
        connected = true
        guard let address = IPAddress(peer), address == request.address, request.admits(address) else {
            ending = .peerRefused(IPAddress(peer) ?? IPAddress(high: 0, low: 0))
            return false
        }
        return true
    }

    /// One line of a head, whole; past ``HTTPClient/maxHeadBytes`` the transfer ends. The blank line
    /// that ends a final head (not a 1xx one) makes the answer.
    private func take(headerLine bytes: UnsafeRawBufferPointer) -> Int {
        guard body == nil else { return bytes.count }  // trailers
        headBytes += bytes.count
        guard headBytes <= HTTPClient.maxHeadBytes else {
            ending = .failed("the answer's head from \(endpoint) is longer than \(HTTPClient.maxHeadBytes) bytes")
            return 0
        }
        if bytes.first == 0x0D || bytes.first == 0x0A, info(CURLINFO_RESPONSE_CODE) >= 200 { body = [] }
        return bytes.count
    }

    /// Body bytes: kept up to the request's limit; past it the transfer ends (a short count tells
    /// libcurl to stop), and what lies beyond is never read.
    private func take(body bytes: UnsafeRawBufferPointer) -> Int {
        guard body != nil else { return bytes.count }
        let room = request.answerLimit - body!.count
        body!.append(contentsOf: bytes.prefix(room))
        return bytes.count > room ? 0 : bytes.count
    }

    // MARK: Options and words

    /// The host and port, for messages (never the path or query, nor an address a name resolved to).
    private var endpoint: String {
        let rest = request.url.components(separatedBy: "://").last ?? ""
        return String(rest.prefix { $0 != "/" && $0 != "?" }.split(separator: "@").last ?? "")
    }

    private func reason(_ code: CURLcode) -> String {
        let detail = errors[0] == 0 ? String(cString: curl_easy_strerror(code)) : String(cString: errors)
        switch code {
        case CURLE_PEER_FAILED_VERIFICATION: return "the certificate of \(endpoint) is not trusted: \(detail)"
        case CURLE_SSL_CONNECT_ERROR: return "the TLS handshake with \(endpoint) failed (\(detail))"
        case CURLE_COULDNT_CONNECT:
            // libcurl's words name the address connected to, which a name's owner is not told.
            return "could not connect to \(endpoint): \(String(cString: strerror(Int32(info(CURLINFO_OS_ERRNO)))))"
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_WEIRD_SERVER_REPLY:
            return "\(endpoint) closed the connection before a whole answer head (\(detail))"
        default: return "the request to \(endpoint) failed: \(detail)"
        }
    }

    private func info(_ item: CURLINFO) -> Int {
        var value = 0
        notibase_curl_get_long(easy, item, &value)
        return value
    }

    private func setLong(_ option: CURLoption, _ value: Int) { notibase_curl_set_long(easy, option, value) }
    private func setText(_ option: CURLoption, _ value: String) { notibase_curl_set_pointer(easy, option, value) }

    /// A list option; the list lives as long as the transfer.
    private func setList(_ option: CURLoption, _ lines: [String]) {
        let list = lines.reduce(UnsafeMutablePointer<curl_slist>?.none) { curl_slist_append($0, $1) }
        lists.append(list)
        notibase_curl_set_pointer(easy, option, list)
    }
}
