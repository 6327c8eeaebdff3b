#ifndef NOTIBASE_CMICROHTTPD_SHIM_H
#define NOTIBASE_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// MHD_start_daemon is variadic; this wrapper passes the options Notibase uses as plain arguments
/// (an option array). The TLS key and certificate are added only when both are given.
static inline struct MHD_Daemon *notibase_mhd_start(
    unsigned int flags, uint16_t port, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int connection_limit, unsigned int connection_timeout, size_t memory_limit,
    const char *tls_key, const char *tls_certificate) {
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, (void *) address },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, completed_context },
        { MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) memory_limit, NULL },
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    if (tls_key != NULL && tls_certificate != NULL) {
        options[5] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_MEM_KEY, 0, (void *) tls_key };
        options[6] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_MEM_CERT, 0, (void *) tls_certificate };
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0).
static inline uint16_t notibase_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
