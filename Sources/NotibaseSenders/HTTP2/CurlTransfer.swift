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

    /// Sets the options every request of a client shares, once per easy handle (handles are
    /// reused without `curl_easy_reset`). Returns the error, if any.
    static func configureClientOptions(of handle: UnsafeMutableRawPointer, with configuration: HTTP2ClientConfiguration) -> TransportError? {
        let options = CurlOptions(handle: handle)
        do {
            try options.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
            try options.set(CURLOPT_PIPEWAIT, 1)
            try options.set(CURLOPT_NOSIGNAL, 1)
            try options.set(CURLOPT_CONNECTTIMEOUT_MS, max(1, configuration.connectTimeout.wholeMilliseconds))
            try options.set(CURLOPT_MAXAGE_CONN, max(1, configuration.maxIdleTime.wholeMilliseconds / 1000))
            if let ping = configuration.pingInterval {
                // Not CURLOPT_UPKEEP_INTERVAL_MS: libcurl 7.88 sends HTTP/2 upkeep PINGs only through
                // curl_easy_upkeep on easy-interface connections, never on a multi handle's.
                try options.set(CURLOPT_TCP_KEEPALIVE, 1)
                try options.set(CURLOPT_TCP_KEEPIDLE, max(1, ping.wholeMilliseconds / 1000))
                try options.set(CURLOPT_TCP_KEEPINTVL, max(1, ping.wholeMilliseconds / 1000))
            }
            if let caFile = configuration.caFile { try options.set(CURLOPT_CAINFO, string: caFile) }
            if let certificate = configuration.clientCertificate {
                try options.set(CURLOPT_SSLCERTTYPE, string: "PEM")
                try options.set(CURLOPT_SSLCERT_BLOB, blob: certificate.certificatePEM)
                try options.set(CURLOPT_SSLKEYTYPE, string: "PEM")
                try options.set(CURLOPT_SSLKEY_BLOB, blob: certificate.privateKeyPEM)
            }
            try options.check(notibase_curl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody))
            try options.check(notibase_curl_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader))
            return nil
        } catch {
            return error
        }
    }

    /// Sets this request's own options: URL, method, body, headers, timeout and callback context.
    func configure(timeout: Duration) throws(TransportError) {
        let request = job.request
        let options = CurlOptions(handle: handle)
        let context = Unmanaged.passRetained(self)
        retainedSelf = context
        try options.set(CURLOPT_URL, string: request.url)
        try options.set(CURLOPT_TIMEOUT_MS, max(1, timeout.wholeMilliseconds))
        errorBuffer.withUnsafeMutableBufferPointer { _ = notibase_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, $0.baseAddress) }
        if request.method == "POST" {
            try options.set(CURLOPT_POST, 1)
            try options.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: curl_off_t(request.body.count))
            try options.check(request.body.withUnsafeBytes {
                notibase_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            })
            try options.check(notibase_curl_easy_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, nil))
        } else {
            try options.set(CURLOPT_HTTPGET, 1)
            if request.method == "GET" {
                try options.check(notibase_curl_easy_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, nil))
            } else {
                try options.set(CURLOPT_CUSTOMREQUEST, string: request.method)
            }
        }
        var hasContentType = false
        for header in request.headers {
            hasContentType = hasContentType || header.name.lowercased() == "content-type"
            headerList = curl_slist_append(headerList, header.name + ": " + header.value)
        }
        for line in hasContentType ? ["Expect:", "Accept:"] : ["Content-Type:", "Expect:", "Accept:"] {
            headerList = curl_slist_append(headerList, line)
        }
        try options.check(notibase_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList))
        try options.check(notibase_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque()))
        try options.check(notibase_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque()))
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

    /// One header line, parsed as bytes (Foundation's string trimming was a quarter of the CPU time
    /// at load).
    fileprivate func receive(headerLine data: UnsafeBufferPointer<UInt8>) {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = data.firstIndex(where: { !isSpace($0) }), let last = data.lastIndex(where: { !isSpace($0) }) else { return }
        let line = UnsafeBufferPointer(rebasing: data[first...last])
        if line.starts(with: "HTTP/".utf8) {
            // A new status line (after an interim 1xx answer) starts a new set of headers.
            headers.removeAll()
            status = 0
            var index = line.firstIndex(of: 0x20) ?? line.endIndex
            while index < line.endIndex, line[index] == 0x20 { index += 1 }
            while index < line.endIndex, (0x30...0x39).contains(line[index]) {
                status = status * 10 + Int(line[index] - 0x30)
                index += 1
            }
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: line[..<colon].lazy.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
            let valueStart = line[(colon + 1)...].firstIndex(where: { !isSpace($0) }) ?? line.endIndex
            headers.append(HTTPHeader(name, String(decoding: UnsafeBufferPointer(rebasing: line[valueStart...]), as: UTF8.self)))
        }
    }
}

/// Typed `curl_easy_setopt` calls on one handle, each checked.
struct CurlOptions {
    let handle: UnsafeMutableRawPointer

    func set(_ option: CURLoption, _ value: Int) throws(TransportError) {
        try check(notibase_curl_easy_setopt_long(handle, option, value))
    }

    func set(_ option: CURLoption, offset value: curl_off_t) throws(TransportError) {
        try check(notibase_curl_easy_setopt_off_t(handle, option, value))
    }

    /// A string option; libcurl copies it.
    func set(_ option: CURLoption, string value: String) throws(TransportError) {
        try check(notibase_curl_easy_setopt_string(handle, option, value))
    }

    /// Hands libcurl a copy of `value` (`CURL_BLOB_COPY`).
    func set(_ option: CURLoption, blob value: String) throws(TransportError) {
        var bytes = Array(value.utf8)
        let code = bytes.withUnsafeMutableBytes { buffer in
            var blob = curl_blob(data: buffer.baseAddress, len: buffer.count, flags: UInt32(CURL_BLOB_COPY))
            return notibase_curl_easy_setopt_blob(handle, option, &blob)
        }
        try check(code)
    }

    func check(_ code: CURLcode) throws(TransportError) {
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
