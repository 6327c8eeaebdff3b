import CMicroHTTPD
import Foundation
import Synchronization

// libmicrohttpd's callbacks. They run on its polling thread, so they live outside `main.swift`
// (top-level code is main-actor isolated and traps there) and never await.

/// One request being read, then answered. Created on the first callback for a request and
/// released when libmicrohttpd reports it completed.
final class RequestState: @unchecked Sendable {
    // Unchecked: every field but `response` is touched only on the polling thread (libmicrohttpd
    // calls back for one connection at a time); `response` is handed over through its mutex.
    var method = ""
    var path = ""
    var headers = [String: String](minimumCapacity: 8)
    var query: [String: String] = [:]
    var body: [UInt8] = []
    var tooLarge = false
    var dispatched = false
    let response = Mutex<HTTPResponse?>(nil)

    var request: HTTPRequest {
        HTTPRequest(method: method, path: path, query: query, lowercasedHeaders: headers, body: body)
    }
}

/// A connection pointer handed to whatever answers it later; only used to resume it.
private struct ConnectionHandle: @unchecked Sendable {
    // Unchecked: libmicrohttpd allows MHD_resume_connection from any thread.
    let pointer: OpaquePointer
}

let accessHandlerCallback: MHD_AccessHandlerCallback = { contextPointer, connection, url, method, _, uploadData, uploadDataSize, requestPointer in
    guard let contextPointer, let connection, let requestPointer, let uploadDataSize else { return MHD_Result.NO }
    let context = Unmanaged<HTTPServerContext>.fromOpaque(contextPointer).takeUnretainedValue()

    // First call for this request: only the head has been read.
    guard let existing = requestPointer.pointee else {
        let state = RequestState()
        state.method = method.map { String(cString: $0) } ?? "GET"
        state.path = url.map { String(cString: $0) } ?? "/"
        let statePointer = Unmanaged.passUnretained(state).toOpaque()
        MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, headerIterator, statePointer)
        MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, queryIterator, statePointer)
        requestPointer.pointee = Unmanaged.passRetained(state).toOpaque()
        if let declared = state.headers["content-length"].flatMap(Int.init), declared > context.maxBodyBytes {
            // Answer now; libmicrohttpd closes the connection rather than read the body.
            state.tooLarge = true
            return queue(context.responder.bodyTooLarge(state.request, limit: context.maxBodyBytes), on: connection)
        }
        return MHD_Result.YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()

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

    // The body is complete (or the task has answered and the connection was resumed).
    if let response = state.response.withLock({ $0 }) {
        return queue(response, on: connection)
    }
    if state.dispatched { return MHD_Result.YES }
    if state.tooLarge {
        return queue(context.responder.bodyTooLarge(state.request, limit: context.maxBodyBytes), on: connection)
    }
    switch context.responder.answer(state.request) {
    case .now(let response):
        return queue(response, on: connection)
    case .later(let start):
        state.dispatched = true
        context.inFlight.withLock { $0 += 1 }
        MHD_suspend_connection(connection)
        let handle = ConnectionHandle(pointer: connection)
        start(HTTPReply { response in
            state.response.withLock { $0 = response }
            MHD_resume_connection(handle.pointer)
            context.inFlight.withLock { $0 -= 1 }
        })
        return MHD_Result.YES
    }
}

let requestCompletedCallback: MHD_RequestCompletedCallback = { _, _, requestPointer, _ in
    guard let requestPointer, let state = requestPointer.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(state).release()
    requestPointer.pointee = nil
}

private let headerIterator: MHD_KeyValueIterator = { statePointer, _, key, value in
    guard let statePointer, let key else { return MHD_Result.YES }
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
    state.headers[lowercased(key)] = value.map { String(cString: $0) } ?? ""
    return MHD_Result.YES
}

/// A header name in lowercase (names are ASCII tokens), without `String.lowercased()`'s Unicode
/// tables: it runs for every header of every request.
private func lowercased(_ name: UnsafePointer<CChar>) -> String {
    let count = strlen(name)
    return name.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
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
