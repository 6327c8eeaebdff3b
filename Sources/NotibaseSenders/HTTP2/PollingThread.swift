#if canImport(Glibc)
import Glibc
#endif

/// What a thread that drives sockets with poll needs, shared by the HTTP/2 event loop and the
/// webhook poller.
package enum PollingThread {
    /// A non-blocking, close-on-exec pipe: other threads write a byte to its write end to wake the
    /// thread polling its read end.
    package static func makeWakePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "pipe failed (errno \(errno))")
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }
}
