import Foundation

/// An HTTP/1.1 client over one TCP connection, to see what a library would hide: whether the
/// connection is kept alive, and what the server answers to an oversized body. Its socket calls
/// block, so they run on a thread of their own (``offPool(_:)``), never on the few threads Swift
/// concurrency shares with the server under test.
///
/// The connection opens with the first request, on the same thread that sends it: the server
/// closes a connection whose first request has not arrived 10 s after it opened, and in the main
/// pass (every suite at once on two cores) a test task waited longer than that to be resumed
/// between a connect and its send (CI, HTTPParsingTests: "no answer" after 17 s).
final class RawHTTPClient: @unchecked Sendable {
    // Unchecked: a test uses one client from one task at a time.
    private let port: Int
    private var socket: Int32 = -1
    private var buffer: [UInt8] = []

    /// Sends a request and reads its response (off the concurrency pool); nil when the connection
    /// could not be opened or was closed before an answer.
    func exchange(_ text: String) async -> (status: Int, headers: [String: String], body: String)? {
        await offPool {
            guard self.send(text) else { return nil }
            return self.readResponse()
        }
    }

    /// Reads one more response (off the concurrency pool).
    func nextResponse() async -> (status: Int, headers: [String: String], body: String)? {
        await offPool { self.readResponse() }
    }

    /// Whether a connection to `port` is taken (off the concurrency pool).
    static func connects(port: Int) async -> Bool {
        await offPool { RawHTTPClient(port: port).open() }
    }

    /// A client of the server on `port`; it connects when it sends its first request.
    init(port: Int) {
        self.port = port
    }

    /// Opens the connection unless it is open; false when it cannot be.
    private func open() -> Bool {
        if socket >= 0 { return true }
        socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Foundation.close(socket)
            socket = -1
            return false
        }
        // A bound against a hang, not a speed check.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return true
    }

    deinit { if socket >= 0 { close(socket) } }

    /// Writes raw bytes (opening the connection first if needed); false when it cannot be opened.
    @discardableResult
    func send(_ text: String) -> Bool {
        guard open() else { return false }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(socket, $0.baseAddress! + offset, $0.count - offset) }
            // A write the server refused (it closed): the read says what it answered.
            if written <= 0 { return true }
            offset += written
        }
        return true
    }

    /// Reads one response (head and a Content-Length body); nil when the connection closed.
    private func readResponse() -> (status: Int, headers: [String: String], body: String)? {
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                while buffer.count < end + 4 + length { guard fill() else { return nil } }
                let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                buffer.removeFirst(end + 4 + length)
                let status = Int(head[0].split(separator: " ")[1]) ?? 0
                return (status, headers, body)
            }
            guard fill() else { return nil }
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }
}

/// Runs blocking work on a thread of its own and waits for it without holding a pool thread.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// The same for work that cannot fail.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}
