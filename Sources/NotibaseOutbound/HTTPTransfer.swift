import CCurl
import COpenSSL
import Foundation
import NotibaseDomain

/// One request on a libcurl easy handle, made, run and finished on its client's thread: the
/// options that hold it to its checked address, deadline and bounds, and what its callbacks
/// collect of the answer. The callbacks are C functions given the transfer as their context.
package final class HTTPTransfer {
    package let easy: OpaquePointer
    private let request: HTTPClient.Request
    private let continuation: CheckedContinuation<HTTPClient.Ending, Never>
    private var lists: [UnsafeMutablePointer<curl_slist>?] = []
    private let errors = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// The status of the head being read, its headers and their bytes (interim heads' included).
    private var status: Int?
    private var headers: [(name: String, value: String)] = []
    private var headBytes = 0
    /// Set once a final head is whole.
    private var answer: HTTPClient.Answer?
    private var failure: String?
    private var refused: IPAddress?
    /// Whether a connection was made or taken (and its peer checked).
    private var connected = false

    package init(_ request: HTTPClient.Request, continuation: CheckedContinuation<HTTPClient.Ending, Never>) {
        self.request = request
        self.continuation = continuation
        easy = curl_easy_init()!
        errors[0] = 0
        // Rounded up; a deadline already past (the lookup took it) still lets libcurl start.
        let (seconds, attoseconds) = (request.deadline - .now).components
        setLong(CURLOPT_TIMEOUT_MS, max(1, Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000) + 1))
        setText(CURLOPT_URL, request.url)
        setText(CURLOPT_PROTOCOLS_STR, request.allowsPlainHTTP ? "http,https" : "https")
        // Only the checked address (any host and port of this one URL go there, on its port): no
        // name is looked up by libcurl, and kept connections are told apart by it.
        let address = request.address.isIPv4 ? "\(request.address)" : "[\(request.address)]"
        setList(CURLOPT_CONNECT_TO, ["::\(address):"])
        setText(CURLOPT_PROXY, "")
        setLong(CURLOPT_FOLLOWLOCATION, 0)
        setLong(CURLOPT_PATH_AS_IS, 1)
        setLong(CURLOPT_NOSIGNAL, 1)
        setLong(CURLOPT_MAXAGE_CONN, HTTPClient.idleLimit)
        setLong(CURLOPT_HTTP_VERSION, request.version == .http2 ? Int(CURL_HTTP_VERSION_2TLS) : Int(CURL_HTTP_VERSION_1_1))
        setLong(CURLOPT_PIPEWAIT, request.version == .http2 ? 1 : 0)
        setList(CURLOPT_HTTPHEADER, ["Accept:", "Expect:"] + request.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" })
        if request.method != "GET" || !request.body.isEmpty {
            notibase_curl_set_size(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            if request.body.isEmpty { setText(CURLOPT_COPYPOSTFIELDS, "") }
            request.body.withUnsafeBytes { if let bytes = $0.baseAddress { notibase_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, bytes) } }
            if request.method != "POST" { setText(CURLOPT_CUSTOMREQUEST, request.method) }
        }
        setTLS()
        notibase_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errors)
        let context = Unmanaged.passUnretained(self).toOpaque()
        for option in [CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_PREREQDATA] { notibase_curl_set_pointer(easy, option, context) }
        notibase_curl_set_write(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            return Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue().take(body: UnsafeRawBufferPointer(start: data, count: size * count))
        }
        notibase_curl_set_write(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            return Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue().take(headerLine: UnsafeRawBufferPointer(start: data, count: size * count))
        }
        notibase_curl_set_prereq(easy) { context, peer, _, _, _ in
            guard let context, let peer else { return CURL_PREREQFUNC_ABORT }
            return Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue().admits(String(cString: peer)) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
        }
    }

    deinit {
        curl_easy_cleanup(easy)
        for list in lists { curl_slist_free_all(list) }
        errors.deallocate()
    }

    /// TLS 1.2 or later; what a handshake may cost this side bounded (decision 0036, issue 43):
    /// only elliptic-curve key exchange (TLS 1.3, or 1.2's ECDHE with an AEAD) on X25519, P-256 or
    /// P-384, a chain of at most 10 certificates, and no renegotiation.
    private func setTLS() {
        setLong(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
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

    /// Resumes the caller with what became of the transfer, `code` being libcurl's.
    internal func complete(_ code: CURLcode) {
        var connects = 0
        notibase_curl_get_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        let outcome: HTTPClient.Outcome
        if let refused {
            outcome = .peerRefused(refused)
        } else if let answer {
            // Whole, or cut by the limit, the deadline or the connection's end: an answer.
            outcome = .answered(answer)
        } else if let failure {
            outcome = .failed(failure)
        } else {
            outcome = code == CURLE_OPERATION_TIMEDOUT ? .timedOut : .failed(reason(code))
        }
        continuation.resume(returning: HTTPClient.Ending(outcome: outcome, reusedConnection: connected && connects == 0))
    }

    // MARK: The callbacks

    private func admits(_ peer: String) -> Bool {
        connected = true
        guard let address = IPAddress(peer), address == request.address, request.admits(address) else {
            refused = IPAddress(peer) ?? IPAddress(high: 0, low: 0)
            return false
        }
        return true
    }

    /// One line of a head (libcurl gives each whole): a status line starts a head, a blank line
    /// ends it. Past ``HTTPClient/maxHeadBytes`` the transfer ends.
    private func take(headerLine bytes: UnsafeRawBufferPointer) -> Int {
        guard answer == nil else { return bytes.count }  // trailers
        headBytes += bytes.count
        guard headBytes <= HTTPClient.maxHeadBytes else {
            failure = "the answer's head from \(endpoint) is longer than \(HTTPClient.maxHeadBytes) bytes"
            return 0
        }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2)
            status = parts.count >= 2 && parts[1].utf8.count == 3 ? Int(parts[1]) : nil
            headers = []
        } else if line.isEmpty, let status, status >= 200 {
            answer = HTTPClient.Answer(status: status, headers: headers)
        } else if let colon = line.firstIndex(of: ":") {
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return bytes.count
    }

    /// Body bytes: kept up to the request's limit; past it the transfer ends (a short count tells
    /// libcurl to stop), and what lies beyond is never read.
    private func take(body bytes: UnsafeRawBufferPointer) -> Int {
        guard answer != nil else { return bytes.count }
        let room = request.answerLimit - answer!.body.count
        answer!.body.append(contentsOf: bytes.prefix(room))
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
            var number = 0
            notibase_curl_get_long(easy, CURLINFO_OS_ERRNO, &number)
            return "could not connect to \(endpoint): \(String(cString: strerror(Int32(number))))"
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_WEIRD_SERVER_REPLY:
            return "\(endpoint) closed the connection before a whole answer head (\(detail))"
        default: return "the request to \(endpoint) failed: \(detail)"
        }
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
