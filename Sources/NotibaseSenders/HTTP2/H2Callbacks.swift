import CNGHTTP2
import NotibaseCore

// nghttp2's callbacks. `user_data` is the H2Connection (unretained: the connection frees the
// session before it goes away). They run on the event-loop thread, inside nghttp2_session_mem_recv
// and nghttp2_session_mem_send.

private func connection(_ userData: UnsafeMutableRawPointer?) -> H2Connection {
    Unmanaged<H2Connection>.fromOpaque(userData!).takeUnretainedValue()
}

/// Creates a client session whose callbacks reach `owner`.
func makeClientSession(owner: H2Connection) -> OpaquePointer? {
    var callbacks: OpaquePointer?
    guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return nil }
    defer { nghttp2_session_callbacks_del(callbacks) }
    nghttp2_session_callbacks_set_on_header_callback(callbacks, h2OnHeader)
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, h2OnData)
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, h2OnStreamClose)
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, h2OnFrame)
    var session: OpaquePointer?
    guard nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(owner).toOpaque()) == 0 else { return nil }
    return session
}

private let h2OnHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
    guard let frame, let name, let value else { return 0 }
    let nameBuffer = UnsafeBufferPointer(start: name, count: nameLength)
    let valueBuffer = UnsafeBufferPointer(start: value, count: valueLength)
    connection(userData).received(header: nameBuffer, value: valueBuffer, stream: frame.pointee.hd.stream_id)
    return 0
}

private let h2OnData: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
    guard let data else { return 0 }
    connection(userData).received(data: UnsafeBufferPointer(start: data, count: length), stream: streamID)
    return 0
}

private let h2OnStreamClose: nghttp2_on_stream_close_callback = { _, streamID, errorCode, userData in
    connection(userData).streamClosed(streamID, errorCode: errorCode)
    return 0
}

private let h2OnFrame: nghttp2_on_frame_recv_callback = { _, frame, userData in
    guard let frame else { return 0 }
    connection(userData).received(frameType: UInt32(frame.pointee.hd.type), flags: frame.pointee.hd.flags)
    return 0
}

/// The request body's data source: copies the next part of the stream's body.
let h2ReadBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, userData in
    guard let buffer, let flags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
    return connection(userData).readBody(stream: streamID, into: buffer, length: length, flags: flags)
}
