import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// A client session on one context and a server session on another over a non-blocking socket
/// pair, driven through their handshake in turn, without threads (the webhook TLS tests).
struct TLSSocketPair {
    let client: OpaquePointer
    let server: OpaquePointer
    /// Whether both finished their handshake.
    let handshook: Bool

    /// Nil when the socket pair or a session could not be made. The caller frees both sessions and
    /// closes their sockets (`SSL_get_fd`).
    static func make(client clientContext: OpaquePointer, server serverContext: OpaquePointer) -> TLSSocketPair? {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0,
              let client = SSL_new(clientContext), let server = SSL_new(serverContext) else { return nil }
        SSL_set_fd(client, fds[0])
        SSL_set_connect_state(client)
        SSL_set_fd(server, fds[1])
        SSL_set_accept_state(server)
        var (clientDone, serverDone) = (false, false)
        for _ in 0..<100 where !(clientDone && serverDone) {
            if !clientDone { clientDone = SSL_do_handshake(client) == 1 }
            if !serverDone { serverDone = SSL_do_handshake(server) == 1 }
        }
        return TLSSocketPair(client: client, server: server, handshook: clientDone && serverDone)
    }
}
