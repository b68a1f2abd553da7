// OpenSSL (libssl.so.3, with its libcrypto.so.3) is loaded with dlopen the first time a command
// uses the Cast channel or checks a certificate, not linked: linked, both libraries were mapped
// and relocated in every cast-scan process, several MiB resident in a listing that never opens a
// TLS connection. The rest of the code calls OpenSSL's functions by their own names; the
// definitions here stand in for them, each passing its arguments on to the function the loader
// found. They are hidden: the executable does not export them, so libcrypto's own calls (and
// those of libcurl, which links OpenSSL itself) never land here.
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC visibility push(hidden)
#include "COpenSSL.h"
#include <openssl/pem.h>
#include <openssl/bn.h>

// The table: one pointer per function, typed by the header's own declaration.
#define CAST_OPENSSL_FUNCTION(type, name, parameters, arguments) static __typeof__(name) *cast_openssl_##name;
#define CAST_OPENSSL_PROCEDURE(name, parameters, arguments) static __typeof__(name) *cast_openssl_##name;
#include "functions.h"
#undef CAST_OPENSSL_FUNCTION
#undef CAST_OPENSSL_PROCEDURE

static pthread_once_t cast_openssl_once = PTHREAD_ONCE_INIT;
static atomic_bool cast_openssl_loaded;
static char cast_openssl_error[256];

// Opens libssl and finds every function; on any failure nothing is kept and the reason is.
static void cast_openssl_open(void) {
    void *library = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(cast_openssl_error, sizeof cast_openssl_error, "%s", reason ? reason : "libssl.so.3: not found");
        return;
    }
    // dlsym on libssl's handle searches libssl, then the libraries it needs (libcrypto).
#define CAST_OPENSSL_FUNCTION(type, name, parameters, arguments)                                              \
    cast_openssl_##name = (__typeof__(name) *)dlsym(library, #name);                                          \
    if (cast_openssl_##name == NULL) {                                                                         \
        snprintf(cast_openssl_error, sizeof cast_openssl_error, "libssl.so.3 has no function %s", #name);      \
        dlclose(library);                                                                                      \
        return;                                                                                                \
    }
#define CAST_OPENSSL_PROCEDURE(name, parameters, arguments) CAST_OPENSSL_FUNCTION(void, name, parameters, arguments)
#include "functions.h"
#undef CAST_OPENSSL_FUNCTION
#undef CAST_OPENSSL_PROCEDURE
    atomic_store_explicit(&cast_openssl_loaded, true, memory_order_release);
}

bool cast_openssl_load(char *reason, size_t size) {
    pthread_once(&cast_openssl_once, cast_openssl_open);
    if (atomic_load_explicit(&cast_openssl_loaded, memory_order_acquire)) return true;
    if (reason != NULL && size > 0) snprintf(reason, size, "%s", cast_openssl_error);
    return false;
}

// Reached only by a call into OpenSSL that no caller checked the library for first (every entry
// point in CastChannel does): there is no value to return in OpenSSL's place.
static void cast_openssl_missing(const char *function) {
    fprintf(stderr, "cast-scan: %s needs OpenSSL (libssl3), which could not be loaded: %s\n", function,
            cast_openssl_error);
    abort();
}

static inline void cast_openssl_require(const char *function) {
    if (__builtin_expect(!atomic_load_explicit(&cast_openssl_loaded, memory_order_acquire), 0)) {
        if (!cast_openssl_load(NULL, 0)) cast_openssl_missing(function);
    }
}

// The stand-ins, under OpenSSL's names.
#define CAST_OPENSSL_FUNCTION(type, name, parameters, arguments)                                              \
    type name parameters {                                                                                     \
        cast_openssl_require(#name);                                                                           \
        return cast_openssl_##name arguments;                                                                  \
    }
#define CAST_OPENSSL_PROCEDURE(name, parameters, arguments)                                                   \
    void name parameters {                                                                                     \
        cast_openssl_require(#name);                                                                           \
        cast_openssl_##name arguments;                                                                         \
    }
#include "functions.h"
#undef CAST_OPENSSL_FUNCTION
#undef CAST_OPENSSL_PROCEDURE

#pragma GCC visibility pop
