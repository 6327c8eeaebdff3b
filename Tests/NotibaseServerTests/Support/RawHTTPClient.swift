import Foundation

/// An HTTP/1.1 client over one TCP connection, to see what a library would hide: whether the
/// connection is kept alive, and what the server answers to an oversized body. Its socket calls
/// block, so they run on a thread of their own (``offPool(_:)``), never on the few threads Swift
/// concurrency shares with the server under test.
final class RawHTTPClient: @unchecked Sendable {
    // Unchecked: a test uses one client from one task at a time.
    private let socket: Int32
    private var buffer: [UInt8] = []

    /// Connects (off the concurrency pool).
    static func connect(port: Int) async throws -> RawHTTPClient {
        try await offPool { try RawHTTPClient(port: port) }
    }

    /// Sends a request and reads its response (off the concurrency pool).
    func exchange(_ text: String) async -> (status: Int, headers: [String: String], body: String)? {
        await offPool {
            self.send(text)
            return self.readResponse()
        }
    }

    /// Reads one more response (off the concurrency pool).
    func nextResponse() async -> (status: Int, headers: [String: String], body: String)? {
        await offPool { self.readResponse() }
    }

    private init(port: Int) throws {
        socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw HarnessError("cannot connect to port \(port)") }
        // A bound against a hang, not a speed check: the main pass runs every suite at once on
        // two cores, where a busy server answered after more than 10 s (CI, HTTPParsingTests).
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socket) }

    /// Writes raw bytes.
    func send(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(socket, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Reads one response (head and a Content-Length body); nil when the connection closed.
    func readResponse() -> (status: Int, headers: [String: String], body: String)? {
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

    /// Whether the server closed the connection (a read returns end of file).
    func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        return read(socket, &byte, 1) == 0
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
