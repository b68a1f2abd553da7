// GNU libmicrohttpd (Debian's libmicrohttpd12; headers from libmicrohttpd-dev) for
// `cast-scan serve`.
//
// Loaded with dlopen when a server starts, not linked: libmicrohttpd brings GnuTLS and its
// libraries (nettle, hogweed, gmp, p11-kit, idn2, ...), several MiB resident in every
// cast-scan process, which only `serve` needs. MHD_start_daemon and MHD_get_daemon_info are
// variadic, which Swift cannot call: typed wrappers here. The table is defined once, in this
// target's C file.
#include <microhttpd.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

typedef struct {
    struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
                                       void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...);
    void (*stop_daemon)(struct MHD_Daemon *daemon);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType type, ...);
    struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
    enum MHD_Result (*add_response_header)(struct MHD_Response *response, const char *header, const char *content);
    enum MHD_Result (*queue_response)(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response);
    void (*destroy_response)(struct MHD_Response *response);
    const char *(*lookup_connection_value)(struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key);
    void (*suspend_connection)(struct MHD_Connection *connection);
    void (*resume_connection)(struct MHD_Connection *connection);
    enum MHD_Result (*add_connection)(struct MHD_Daemon *daemon, MHD_socket client_socket,
                                      const struct sockaddr *addr, socklen_t addrlen);
} cast_mhd_api;

// The one table of the process (defined in cmicrohttpd.c): a static in an inline function
// would be one per object file that uses it, and an optimiser that inlines across files
// would read a copy never filled.
extern cast_mhd_api cast_mhd_table_storage;

static inline cast_mhd_api *cast_mhd_table(void) { return &cast_mhd_table_storage; }

// Loads libmicrohttpd and its functions; false (with nothing loaded) when it is missing.
// Call once, before any other function here (HTTPServer does, from a Swift static, which runs
// it once, thread-safely).
static inline bool cast_mhd_load(void) {
    void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return false;
    cast_mhd_api api = {
        (struct MHD_Daemon *(*)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *, MHD_AccessHandlerCallback, void *, ...))
            dlsym(library, "MHD_start_daemon"),
        (void (*)(struct MHD_Daemon *))dlsym(library, "MHD_stop_daemon"),
        (const union MHD_DaemonInfo *(*)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...))dlsym(library, "MHD_get_daemon_info"),
        (struct MHD_Response *(*)(size_t, void *, enum MHD_ResponseMemoryMode))dlsym(library, "MHD_create_response_from_buffer"),
        (enum MHD_Result (*)(struct MHD_Response *, const char *, const char *))dlsym(library, "MHD_add_response_header"),
        (enum MHD_Result (*)(struct MHD_Connection *, unsigned int, struct MHD_Response *))dlsym(library, "MHD_queue_response"),
        (void (*)(struct MHD_Response *))dlsym(library, "MHD_destroy_response"),
        (const char *(*)(struct MHD_Connection *, enum MHD_ValueKind, const char *))dlsym(library, "MHD_lookup_connection_value"),
        (void (*)(struct MHD_Connection *))dlsym(library, "MHD_suspend_connection"),
        (void (*)(struct MHD_Connection *))dlsym(library, "MHD_resume_connection"),
        (enum MHD_Result (*)(struct MHD_Daemon *, MHD_socket, const struct sockaddr *, socklen_t))dlsym(
            library, "MHD_add_connection"),
    };
    if (!api.start_daemon || !api.stop_daemon || !api.get_daemon_info || !api.create_response_from_buffer ||
        !api.add_response_header || !api.queue_response || !api.destroy_response || !api.lookup_connection_value ||
        !api.suspend_connection || !api.resume_connection || !api.add_connection) {
        dlclose(library);
        return false;
    }
    *cast_mhd_table() = api;
    return true;
}

// What a server may hold: connections at once, per client address, seconds a connection may
// idle, bytes of memory per connection (its request head must fit: more is 431).
typedef struct {
    unsigned int connection_limit;
    unsigned int per_address_limit;
    unsigned int timeout_seconds;
    size_t memory_limit;
} cast_mhd_limits;

// Starts a daemon with its own polling thread (epoll) on `address`, calling `handler` with
// `context` for each request and `completed` with it when a request ends (answered, or its
// connection closed). Requests may be suspended and resumed (answered later).
static inline struct MHD_Daemon *cast_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                cast_mhd_limits limits, MHD_AccessHandlerCallback handler,
                                                MHD_RequestCompletedCallback completed, void *context) {
    return cast_mhd_table()->start_daemon(
        flags | MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL, handler, context,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_CONNECTION_LIMIT, limits.connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.memory_limit,
        MHD_OPTION_END);
}

// Starts a daemon as cast_mhd_start does, on a socket already listening (systemd's socket
// activation), which it then owns.
static inline struct MHD_Daemon *cast_mhd_start_on_socket(unsigned int flags, int socket, cast_mhd_limits limits,
                                                          MHD_AccessHandlerCallback handler,
                                                          MHD_RequestCompletedCallback completed, void *context) {
    return cast_mhd_table()->start_daemon(
        flags | MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL, handler, context,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)socket,
        MHD_OPTION_CONNECTION_LIMIT, limits.connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.memory_limit,
        MHD_OPTION_END);
}

static inline void cast_mhd_stop(struct MHD_Daemon *daemon) { cast_mhd_table()->stop_daemon(daemon); }

// The port the daemon listens on (the one the system chose for port 0); 0 when unknown.
static inline uint16_t cast_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = cast_mhd_table()->get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// A response holding a copy of `size` bytes at `body`; NULL when out of memory.
static inline struct MHD_Response *cast_mhd_response(const void *body, size_t size) {
    return cast_mhd_table()->create_response_from_buffer(size, (void *)body, MHD_RESPMEM_MUST_COPY);
}

static inline bool cast_mhd_add_header(struct MHD_Response *response, const char *name, const char *value) {
    return cast_mhd_table()->add_response_header(response, name, value) == MHD_YES;
}

static inline bool cast_mhd_queue(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response) {
    return cast_mhd_table()->queue_response(connection, status, response) == MHD_YES;
}

static inline void cast_mhd_release(struct MHD_Response *response) { cast_mhd_table()->destroy_response(response); }

// A request header's value, or NULL.
static inline const char *cast_mhd_header(struct MHD_Connection *connection, const char *name) {
    return cast_mhd_table()->lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

// Starts a daemon as cast_mhd_start does, with no socket of its own: it serves the connections
// handed to it with cast_mhd_add (a TLS front's decrypted side). `limits.connection_limit` must
// stay above what is handed to it: libmicrohttpd 0.9.75 can deadlock when an added connection
// meets its limit.
static inline struct MHD_Daemon *cast_mhd_start_without_socket(cast_mhd_limits limits, MHD_AccessHandlerCallback handler,
                                                               MHD_RequestCompletedCallback completed, void *context) {
    return cast_mhd_table()->start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_NO_LISTEN_SOCKET, 0, NULL, NULL, handler,
        context,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_CONNECTION_LIMIT, limits.connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.memory_limit,
        MHD_OPTION_END);
}

// Hands `socket` (which the daemon then owns and closes) to a daemon started without a socket,
// as a connection from `address`; false when it refused it (closed too).
static inline bool cast_mhd_add(struct MHD_Daemon *daemon, int socket, const struct sockaddr *address,
                                socklen_t length) {
    return cast_mhd_table()->add_connection(daemon, (MHD_socket)socket, address, length) == MHD_YES;
}

// Holds a request's answer until cast_mhd_resume: the handler is called again for it then.
static inline void cast_mhd_suspend(struct MHD_Connection *connection) {
    cast_mhd_table()->suspend_connection(connection);
}

// Lets a suspended request go on (from any thread).
static inline void cast_mhd_resume(struct MHD_Connection *connection) {
    cast_mhd_table()->resume_connection(connection);
}

// A query argument's value (decoded), or NULL.
static inline const char *cast_mhd_argument(struct MHD_Connection *connection, const char *name) {
    return cast_mhd_table()->lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, name);
}
