import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 that serves a few files from memory: the image host of
/// `notibase demo`. One thread accepts, one thread a connection; `Connection: close` after each
/// answer. Not a general web server.
package final class LocalImageHost: @unchecked Sendable {
    // @unchecked Sendable: `files` is immutable after init; `listener` is closed once by `stop`,
    // guarded by `lock`.
    private let files: [String: (contentType: String, bytes: [UInt8])]
    private let lock = NSLock()
    private var listener: Int32
    /// The port it listens on.
    package let port: Int

    /// Serves `files` (path → content type and bytes) on an ephemeral port.
    package init(files: [String: (contentType: String, bytes: [UInt8])]) throws {
        self.files = files
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw LocalImageHostError("cannot create a socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 64) == 0 else {
            close(socket)
            throw LocalImageHostError("cannot listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = socket
        let thread = Thread { [self] in acceptLoop(socket) }
        thread.name = "notibase image host"
        thread.start()
    }

    /// `http://127.0.0.1:<port>`.
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops listening.
    package func stop() {
        lock.lock()
        let socket = listener
        listener = -1
        lock.unlock()
        if socket >= 0 {
            shutdown(socket, Int32(SHUT_RDWR))
            close(socket)
        }
    }

    deinit { stop() }

    private func acceptLoop(_ socket: Int32) {
        while true {
            let connection = accept(socket, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd, request.count < 65_536 {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            request.append(contentsOf: buffer[0..<count])
        }
        let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self).split(separator: " ")
        let path = line.count > 1 ? String(line[1].split(separator: "?").first ?? "") : ""
        var head: String
        var body: [UInt8] = []
        if line.first == "GET", let file = files[path] {
            head = "HTTP/1.1 200 OK\r\nContent-Type: \(file.contentType)\r\nContent-Length: \(file.bytes.count)\r\n"
            body = file.bytes
        } else {
            head = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n"
        }
        head += "Connection: close\r\n\r\n"
        writeAll(connection, Array(head.utf8) + body)
    }

    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// The image host could not start.
struct LocalImageHostError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
