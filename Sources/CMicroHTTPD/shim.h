#ifndef NOTIBASE_CMICROHTTPD_SHIM_H
#define NOTIBASE_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/// Where libmicrohttpd's own messages go: a plain, formatted line and the context given with it.
typedef void (*notibase_mhd_log_sink)(void *context, const char *message);

/// The sink and its context, alive as long as the daemon.
struct notibase_mhd_logger {
    notibase_mhd_log_sink sink;
    void *context;
};

/// libmicrohttpd's logger (printf-style, a va_list): formats the message, without its trailing
/// newline, and hands it to the sink.
static void notibase_mhd_log(void *cls, const char *format, va_list arguments) {
    const struct notibase_mhd_logger *logger = (const struct notibase_mhd_logger *) cls;
    char message[1024];
    int length = vsnprintf(message, sizeof message, format, arguments);
    if (length < 0) return;
    size_t end = (size_t) length < sizeof message ? (size_t) length : sizeof message - 1;
    while (end > 0 && (message[end - 1] == '\n' || message[end - 1] == '\r')) message[--end] = '\0';
    logger->sink(logger->context, message);
}

/// MHD_start_daemon is variadic; this wrapper passes the options Notibase uses as plain arguments
/// (an option array). The TLS key and certificate are added only when both are given.
/// `uri_log` sees each request's target as sent, before any decoding; what it returns is the
/// request's initial context. libmicrohttpd's messages go to `logger`. `accept_policy` sees each
/// client's address before its connection is set up (MHD_NO closes it); `notify` sees every
/// connection start and close (on the polling thread, before its socket is closed).
static inline struct MHD_Daemon *notibase_mhd_start(
    unsigned int flags, uint16_t port, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection), void *uri_log_context,
    MHD_AcceptPolicyCallback accept_policy, MHD_NotifyConnectionCallback notify, void *connection_context,
    const struct notibase_mhd_logger *logger,
    unsigned int connection_limit, unsigned int connection_timeout, size_t memory_limit,
    const char *tls_key, const char *tls_certificate) {
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) notibase_mhd_log, (void *) logger },
        { MHD_OPTION_SOCK_ADDR, 0, (void *) address },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, completed_context },
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) uri_log, uri_log_context },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) notify, connection_context },
        { MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) memory_limit, NULL },
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    if (tls_key != NULL && tls_certificate != NULL) {
        options[8] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_MEM_KEY, 0, (void *) tls_key };
        options[9] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_MEM_CERT, 0, (void *) tls_certificate };
    }
    return MHD_start_daemon(flags, port, accept_policy, connection_context, handler, handler_context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0).
static inline uint16_t notibase_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
/// The size of the request's head as received (request line, headers and the empty line), from
/// the request method's first byte; 0 when unknown. MHD_get_connection_info is variadic.
static inline size_t notibase_mhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/// Hands freed heap memory back to the system (glibc keeps large freed blocks for reuse, so the
/// request bodies of a flood would stay counted in the process's memory); nothing elsewhere.
static inline void notibase_release_free_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/// The connection's socket, or -1 (MHD_get_connection_info is variadic).
static inline int notibase_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The client's address (the TCP peer), or NULL.
static inline const struct sockaddr *notibase_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}
#endif
