import Foundation

/// A raw TCP connection for flood tests: opened from a chosen loopback address (127.0.0.2 is as
/// good a source as any other 127.x address), written in pieces, read with a deadline. Blocking:
/// use it on a thread of its own (``offPool(_:)``), never on the concurrency pool.
struct FloodSocket: Sendable {
    let descriptor: Int32

    /// Connects to 127.0.0.1:`port` from `source`; nil when the connection could not be made.
    static func open(port: Int, from source: String = "127.0.0.1") -> FloodSocket? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = local
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        // A connection the server does not take fails in 3 s instead of the system's minutes.
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, connected == 0 else {
            _ = Foundation.close(descriptor)
            return nil
        }
        return FloodSocket(descriptor: descriptor)
    }

    /// Writes what the socket takes now without blocking; the number of bytes written (0 when
    /// it takes nothing or is closed).
    @discardableResult
    func sendNow(_ bytes: UnsafeRawBufferPointer) -> Int {
        max(0, Foundation.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)))
    }

    @discardableResult
    func sendNow(_ text: String) -> Int {
        Array(text.utf8).withUnsafeBytes { sendNow($0) }
    }

    /// Reads until a whole response head is in, the peer closes, or `timeout` passes: the status
    /// (0 when none came) and whether the peer closed.
    func readStatus(timeout: TimeInterval) -> (status: Int, closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let wait = Int32(max(1, deadline.timeIntervalSinceNow * 1_000))
            guard poll(&poller, 1, wait) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (status(of: received), true) }
            received += chunk[..<count]
            if received.count >= 12, String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { return (status(of: received), false) }
        }
        return (status(of: received), false)
    }

    private func status(of bytes: [UInt8]) -> Int {
        let line = String(decoding: bytes.prefix(12), as: UTF8.self)
        guard line.hasPrefix("HTTP/1.1 "), let code = Int(line.dropFirst(9).prefix(3)) else { return 0 }
        return code
    }

    func close() { _ = Foundation.close(descriptor) }
}

/// This process's resident memory in bytes (`VmRSS` in /proc/self/status).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kilobytes * 1_024
}

/// The `fraction` quantile of `values` (0.99: the 99th percentile).
func quantile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .infinity }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}
