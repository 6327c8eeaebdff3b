import CCurl
import NotibaseCore

/// One request in flight on the loop thread: its easy handle's options, and the answer as it
/// arrives through libcurl's write and header callbacks.
final class CurlTransfer {
    let job: HTTP2Job
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var status = 0
    private var headers: [HTTPHeader] = []
    private var body: [UInt8] = []
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE))
    private var retainedSelf: Unmanaged<CurlTransfer>?

    init(job: HTTP2Job, handle: UnsafeMutableRawPointer) {
        self.job = job
        self.handle = handle
    }

    /// Sets every option of the request on the (fresh or reset) easy handle.
    func configure(with configuration: HTTP2ClientConfiguration) throws(TransportError) {
        let request = job.request
        let context = Unmanaged.passRetained(self)
        retainedSelf = context
        try set(CURLOPT_URL, string: request.url)
        try set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        try set(CURLOPT_PIPEWAIT, 1)
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_TIMEOUT_MS, max(1, request.timeout.wholeMilliseconds))
        try set(CURLOPT_CONNECTTIMEOUT_MS, max(1, configuration.connectTimeout.wholeMilliseconds))
        try set(CURLOPT_MAXAGE_CONN, max(1, configuration.maxIdleTime.wholeMilliseconds / 1000))
        if let ping = configuration.pingInterval {
            // Not CURLOPT_UPKEEP_INTERVAL_MS: libcurl 7.88 sends HTTP/2 upkeep PINGs only through
            // curl_easy_upkeep on easy-interface connections, never on a multi handle's.
            try set(CURLOPT_TCP_KEEPALIVE, 1)
            try set(CURLOPT_TCP_KEEPIDLE, max(1, ping.wholeMilliseconds / 1000))
            try set(CURLOPT_TCP_KEEPINTVL, max(1, ping.wholeMilliseconds / 1000))
        }
        if let caFile = configuration.caFile { try set(CURLOPT_CAINFO, string: caFile) }
        if let certificate = configuration.clientCertificate {
            try set(CURLOPT_SSLCERTTYPE, string: "PEM")
            try set(CURLOPT_SSLCERT_BLOB, blob: certificate.certificatePEM)
            try set(CURLOPT_SSLKEYTYPE, string: "PEM")
            try set(CURLOPT_SSLKEY_BLOB, blob: certificate.privateKeyPEM)
        }
        errorBuffer.withUnsafeMutableBufferPointer { _ = notibase_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, $0.baseAddress) }

        if request.method == "POST" {
            try set(CURLOPT_POST, 1)
            try set(CURLOPT_POSTFIELDSIZE_LARGE, offset: curl_off_t(request.body.count))
            let copied = request.body.withUnsafeBytes { notibase_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)) }
            try check(copied)
        } else if request.method != "GET" {
            try set(CURLOPT_CUSTOMREQUEST, string: request.method)
        }

        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) { lines.append("Content-Type:") }
        lines += ["Expect:", "Accept:"]
        for line in lines { headerList = curl_slist_append(headerList, line) }
        try check(notibase_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList))

        try check(notibase_curl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody))
        try check(notibase_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque()))
        try check(notibase_curl_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader))
        try check(notibase_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque()))
    }

    /// Frees the header list and the callbacks' reference; the handle goes back to the pool.
    func release() {
        curl_slist_free_all(headerList)
        headerList = nil
        retainedSelf?.release()
        retainedSelf = nil
    }

    /// The complete answer.
    func response() -> HTTP2Response {
        var code = 0
        if notibase_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK, code != 0 { status = code }
        return HTTP2Response(status: status, headers: headers, body: body)
    }

    /// The classified error for a failed transfer.
    func error(for code: CURLcode) -> TransportError {
        let detail = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        return TransportError(kind: Self.kind(of: code), code: Int32(code.rawValue), message: message)
    }

    static func kind(of code: CURLcode) -> TransportError.Kind {
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            .connectFailed
        case CURLE_OPERATION_TIMEDOUT:
            .timedOut
        case CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP3:
            .connectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CLIENTCERT, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED:
            .tls
        default:
            .other
        }
    }

    fileprivate func receive(body data: UnsafeBufferPointer<UInt8>) {
        body.append(contentsOf: data)
    }

    fileprivate func receive(headerLine data: UnsafeBufferPointer<UInt8>) {
        let line = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new status line (after an interim 1xx answer) starts a new set of headers.
            headers.removeAll()
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append(HTTPHeader(name, value))
        }
    }

    private func set(_ option: CURLoption, _ value: Int) throws(TransportError) {
        try check(notibase_curl_easy_setopt_long(handle, option, value))
    }

    private func set(_ option: CURLoption, offset value: curl_off_t) throws(TransportError) {
        try check(notibase_curl_easy_setopt_off_t(handle, option, value))
    }

    private func set(_ option: CURLoption, string value: String) throws(TransportError) {
        try check(notibase_curl_easy_setopt_string(handle, option, value))
    }

    /// Hands libcurl a copy of `value` (`CURL_BLOB_COPY`).
    private func set(_ option: CURLoption, blob value: String) throws(TransportError) {
        var bytes = Array(value.utf8)
        let code = bytes.withUnsafeMutableBytes { buffer in
            var blob = curl_blob(data: buffer.baseAddress, len: buffer.count, flags: UInt32(CURL_BLOB_COPY))
            return notibase_curl_easy_setopt_blob(handle, option, &blob)
        }
        try check(code)
    }

    private func check(_ code: CURLcode) throws(TransportError) {
        guard code == CURLE_OK else {
            throw TransportError(kind: .other, code: Int32(code.rawValue), message: "could not set a request option: " + String(cString: curl_easy_strerror(code)))
        }
    }
}

/// libcurl's write callback: appends body bytes to the transfer.
private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let length = size * count
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    data.withMemoryRebound(to: UInt8.self, capacity: length) { transfer.receive(body: UnsafeBufferPointer(start: $0, count: length)) }
    return length
}

/// libcurl's header callback: one header line (or the status line) at a time.
private func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let length = size * count
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    data.withMemoryRebound(to: UInt8.self, capacity: length) { transfer.receive(headerLine: UnsafeBufferPointer(start: $0, count: length)) }
    return length
}
