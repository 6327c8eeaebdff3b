import CMicroHTTPD
import Foundation
package import Synchronization
package import NotibaseDomain

// libmicrohttpd's callbacks. They run on its polling thread, so they live outside `main.swift`
// (top-level code is main-actor isolated and traps there) and never await.

/// One request being read, then answered. Created on the first callback for a request and
/// released when libmicrohttpd reports it completed.
package final class RequestState: @unchecked Sendable {
    // Unchecked: every field but `settled` is touched only on the polling thread (libmicrohttpd
    // calls back for one connection at a time); `settled` is handed over through its mutex.
    package var method = ""
    package var path = ""
    package var headers = [String: String](minimumCapacity: 8)
    package var query: [String: String] = [:]
    package var body: [UInt8] = []
    package var tooLarge = false
    package var dispatched = false
    /// Whether the head has been read (the first access callback ran).
    package var headRead = false
    /// Whether the target as sent contains `%00`, and where it lay in the read buffer.
    package var targetHasNUL = false
    package var targetStart: UInt = 0
    package var targetEnd: UInt = 0
    /// The head in the read buffer, checked for hidden NUL bytes while the headers are read.
    package var rawHead: RawHead?
    /// The security-relevant headers seen so far (``SecurityHeader`` bits).
    package var securityHeaders: UInt8 = 0
    /// The first problem the headers showed (a NUL byte, a repeated security-relevant header).
    package var headerProblem: HTTPRequestProblem?
    /// The connection's key in the ``ConnectionGuard``.
    package var connectionID: UInt = 0
    /// Whether the connection is suspended (waiting for ``settled``).
    package var suspended = false
    /// Bytes of the ``BodyBudget`` this request holds.
    package var reserved = 0
    /// The client the request is counted for (the peer, or a trusted proxy's client).
    package var client: IPAddress?
    /// What ended a suspension, handed over from whichever thread settled it first.
    package let settled = Mutex<Settlement?>(nil)

    /// The request's ID, made once: the head's screening and the answer log the same one.
    package lazy var requestID = HTTPRequest.newID()

    package var request: HTTPRequest {
        HTTPRequest(method: method, path: path, query: query, lowercasedHeaders: headers, body: body, id: requestID, client: client)
    }
}

/// What ends a suspended request's wait.
package enum Settlement: Sendable {
    /// Send this.
    case answer(HTTPResponse)
    /// Read the body (its key was found).
    case proceed
}

internal let accessHandlerCallback: MHD_AccessHandlerCallback = { contextPointer, connection, url, method, version, uploadData, uploadDataSize, requestPointer in
    guard let contextPointer, let connection, let requestPointer, let uploadDataSize else { return MHD_Result.NO }
    let context = Unmanaged<HTTPServerContext>.fromOpaque(contextPointer).takeUnretainedValue()

    // The state is made when the request line is read (`uriLogCallback`); the fallback is for a
    // request libmicrohttpd did not report there.
    if requestPointer.pointee == nil {
        let state = RequestState()
        state.connectionID = UInt(bitPattern: connection)
        requestPointer.pointee = Unmanaged.passRetained(state).toOpaque()
    }
    let state = Unmanaged<RequestState>.fromOpaque(requestPointer.pointee!).takeUnretainedValue()

    // Resumed: the wait (a key's look-up, or the answer) is over.
    if state.suspended {
        state.suspended = false
        context.inFlight.withLock { $0 -= 1 }
        switch state.settled.withLock({ value in defer { value = nil }; return value }) {
        case .answer(let response)?:
            return queue(response, on: connection)
        case .proceed?:
            return admitBody(state, context, connection)
        case nil:
            return MHD_Result.NO
        }
    }

    // First call for this request: only the head has been read.
    if !state.headRead {
        return readHead(state, context, connection, method: method, url: url, version: version)
    }

    // A piece of the body.
    if uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        if !state.tooLarge, let uploadData {
            if state.body.count + count > context.maxBodyBytes {
                state.tooLarge = true
                state.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
            }
        }
        uploadDataSize.pointee = 0
        return MHD_Result.YES
    }

    // The body is complete.
    context.connections.answering(state.connectionID)
    if state.tooLarge {
        return queue(context.responder.bodyTooLarge(state.request, limit: context.maxBodyBytes), on: connection)
    }
    switch context.responder.answer(state.request) {
    case .now(let response):
        return queue(response, on: connection)
    case .later(let start):
        guard let settle = context.suspend(state, connection) else { return queue(context.shutdownAnswer(state.request), on: connection) }
        start(HTTPReply { settle(.answer($0)) })
        return MHD_Result.YES
    }
}

/// The first call for a request: checks its head, counts it for its client, and decides whether
/// its body is read (the key screened, the body's bytes reserved).
private func readHead(
    _ state: RequestState, _ context: HTTPServerContext, _ connection: OpaquePointer,
    method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
) -> MHD_Result {
    state.headRead = true
    state.method = method.map { String(cString: $0) } ?? "GET"
    state.path = url.map { String(cString: $0) } ?? "/"
    state.rawHead = RawHead(
        method: method, size: notibase_mhd_request_header_size(connection), target: state.targetStart, targetEnd: state.targetEnd, url: url, version: version)
    let statePointer = Unmanaged.passUnretained(state).toOpaque()
    MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, headerIterator, statePointer)
    MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, queryIterator, statePointer)
    if let problem = headProblem(state) {
        // Answer now and close: libmicrohttpd reads no body, and no further request, from a
        // connection whose framing cannot be trusted.
        state.tooLarge = true
        var response = context.responder.badRequest(state.request, problem)
        response.headers.append(("Connection", "close"))
        return queue(response, on: connection)
    }
    if let declared = state.headers["content-length"].flatMap(Int.init), declared > context.maxBodyBytes {
        // Answer now; libmicrohttpd closes the connection rather than read the body.
        state.tooLarge = true
        return queue(context.responder.bodyTooLarge(state.request, limit: context.maxBodyBytes), on: connection)
    }
    switch context.connections.headRead(state.connectionID, forwardedFor: state.headers["x-forwarded-for"]) {
    case .admitted(let client):
        state.client = client
    case .refused:
        state.tooLarge = true
        return queue(context.responder.refuse(state.request, .addressBusy), on: connection)
    }
    guard hasBody(state) else { return MHD_Result.YES }
    switch context.responder.screen(state.request) {
    case .proceed:
        return admitBody(state, context, connection)
    case .refuse(let response):
        state.tooLarge = true
        return queue(response, on: connection)
    case .later(let start):
        guard let settle = context.suspend(state, connection) else {
            state.tooLarge = true
            return queue(context.shutdownAnswer(state.request), on: connection)
        }
        start { refusal in settle(refusal.map(Settlement.answer) ?? .proceed) }
        return MHD_Result.YES
    }
}

/// Whether the request has a body to read.
private func hasBody(_ state: RequestState) -> Bool {
    state.headers["transfer-encoding"] != nil || state.headers["content-length"].flatMap(Int.init).map { $0 > 0 } == true
}

/// Reserves the body's bytes (its declared length; the body limit when chunked) and starts its
/// deadline; answers 503 when the budget has no room.
private func admitBody(_ state: RequestState, _ context: HTTPServerContext, _ connection: OpaquePointer) -> MHD_Result {
    let declared = state.headers["content-length"].flatMap(Int.init)
    let bytes = declared ?? context.maxBodyBytes
    guard context.budget.reserve(bytes) else {
        state.tooLarge = true
        return queue(context.responder.refuse(state.request, .bodiesInFlight), on: connection)
    }
    state.reserved = bytes
    if let declared { state.body.reserveCapacity(declared) }
    context.connections.readingBody(state.connectionID)
    return MHD_Result.YES
}

/// Hands libmicrohttpd's own messages (a malformed request, a failed write) to the server's log.
internal let libmicrohttpdLogSink: notibase_mhd_log_sink = { contextPointer, message in
    guard let contextPointer, let message else { return }
    let context = Unmanaged<HTTPServerContext>.fromOpaque(contextPointer).takeUnretainedValue()
    context.logger.warning(String(cString: message), ["source": "libmicrohttpd"])
}

internal let requestCompletedCallback: MHD_RequestCompletedCallback = { contextPointer, connection, requestPointer, _ in
    guard let requestPointer, let statePointer = requestPointer.pointee else { return }
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeRetainedValue()
    requestPointer.pointee = nil
    guard let contextPointer else { return }
    let context = Unmanaged<HTTPServerContext>.fromOpaque(contextPointer).takeUnretainedValue()
    if state.reserved > 0 { context.budget.release(state.reserved) }
    if let connection { context.connections.completed(UInt(bitPattern: connection)) }
}

/// Called with each request's target as sent, before libmicrohttpd decodes it (a decoded `%00`
/// would end the C string it hands on): makes the request's state, which notes a `%00`.
package let uriLogCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { contextPointer, uri, connection in
    let state = RequestState()
    if let connection {
        state.connectionID = UInt(bitPattern: connection)
        if let contextPointer {
            Unmanaged<HTTPServerContext>.fromOpaque(contextPointer).takeUnretainedValue().connections.requestLine(state.connectionID)
        }
    }
    if let uri {
        state.targetHasNUL = containsEscapedNUL(uri)
        state.targetStart = UInt(bitPattern: uri)
        state.targetEnd = state.targetStart + UInt(strlen(uri))
    }
    return Unmanaged.passRetained(state).toOpaque()
}

/// Whether a C string contains `%00`.
private func containsEscapedNUL(_ text: UnsafePointer<CChar>) -> Bool {
    var index = 0
    while text[index] != 0 {
        if text[index] == 0x25, text[index + 1] == 0x30, text[index + 2] == 0x30 { return true }
        index += 1
    }
    return false
}

/// The framing and header problems that make a request refused before its body is read.
private func headProblem(_ state: RequestState) -> HTTPRequestProblem? {
    if state.targetHasNUL { return .nulInTarget }
    if let problem = state.rawHead?.finish() { return problem }
    if let problem = state.headerProblem { return problem }
    if let encoding = state.headers["transfer-encoding"] {
        if state.headers["content-length"] != nil { return .contentLengthWithTransferEncoding }
        guard encoding.utf8.count == 7, encoding.utf8.elementsEqual("chunked".utf8, by: { $0 | 0x20 == $1 }) else {
            return .unsupportedTransferEncoding
        }
    }
    // libmicrohttpd answers most malformed lengths itself; what it lets through (such as 2^64 - 1,
    // which it reads as "unknown") must still be a number of bytes.
    if let length = state.headers["content-length"], !length.utf8.allSatisfy({ (0x30...0x39).contains($0) }) || Int(length) == nil {
        return .invalidContentLength
    }
    return nil
}

/// The headers whose repetition is refused: each may be read differently by whatever stands
/// between the client and the server (which copy is the key, which length frames the body).
package enum SecurityHeader {
    /// Its bit and canonical name, or nil for any other header; `name` is lowercase.
    package static func bit(_ name: String) -> (UInt8, String)? {
        switch name.utf8.count {
        case 13 where name == "authorization": return (1, "Authorization")
        case 14 where name == "content-length": return (2, "Content-Length")
        case 12 where name == "content-type": return (4, "Content-Type")
        case 17 where name == "transfer-encoding": return (8, "Transfer-Encoding")
        case 15 where name == "idempotency-key": return (16, "Idempotency-Key")
        default: return nil
        }
    }
}

private let headerIterator: MHD_KeyValueIteratorN = { statePointer, _, key, keySize, value, valueSize in
    guard let statePointer, let key else { return MHD_Result.YES }
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
    let name = lowercased(key, count: keySize)
    state.rawHead?.header(name, key: key, keySize: keySize, value: value, valueSize: valueSize)
    if state.headerProblem == nil, let (bit, canonical) = SecurityHeader.bit(name) {
        if state.securityHeaders & bit != 0 { state.headerProblem = .duplicateHeader(canonical) }
        state.securityHeaders |= bit
    }
    state.headers[name] = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
    return MHD_Result.YES
}

/// A header name in lowercase (names are ASCII tokens), without `String.lowercased()`'s Unicode
/// tables: it runs for every header of every request.
private func lowercased(_ name: UnsafePointer<CChar>, count: Int) -> String {
    name.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
        String(unsafeUninitializedCapacity: count) { buffer in
            for index in 0..<count {
                let byte = bytes[index]
                buffer[index] = (0x41...0x5a).contains(byte) ? byte | 0x20 : byte
            }
            return count
        }
    }
}

private let queryIterator: MHD_KeyValueIterator = { statePointer, _, key, value in
    guard let statePointer, let key else { return MHD_Result.YES }
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
    state.query[String(cString: key)] = value.map { String(cString: $0) } ?? ""
    return MHD_Result.YES
}

/// Hands a response to libmicrohttpd (which copies the body).
private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let mhdResponse = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }
    guard let mhdResponse else { return MHD_Result.NO }
    for header in response.headers {
        MHD_add_response_header(mhdResponse, header.name, header.value)
    }
    let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    MHD_destroy_response(mhdResponse)
    return result
}
