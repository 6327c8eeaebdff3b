#ifndef NOTIBASE_CMICROHTTPD_SHIM_H
#define NOTIBASE_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// MHD_start_daemon is variadic; these wrappers pass the options Notibase uses as plain arguments.
/// Unused strings are NULL; the option list ends with MHD_OPTION_END.
static inline struct MHD_Daemon *notibase_mhd_start(
    unsigned int flags, uint16_t port, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int connection_limit, unsigned int connection_timeout, size_t memory_limit,
    const char *tls_key, const char *tls_certificate) {
    if (tls_key != NULL && tls_certificate != NULL) {
        return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
            MHD_OPTION_SOCK_ADDR, address,
            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
            MHD_OPTION_HTTPS_MEM_KEY, tls_key,
            MHD_OPTION_HTTPS_MEM_CERT, tls_certificate,
            MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0).
static inline uint16_t notibase_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
