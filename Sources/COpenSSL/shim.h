// The parts of Debian's OpenSSL 3 (libssl3; headers from libssl-dev) the Cast channel uses: a
// TLS client over memory BIOs, so the channel does its own socket I/O. Imported only by the
// CastChannel module. The functions below stand in for OpenSSL's macros, which Swift cannot
// call.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>

// SNI for a host name (never for an address): SSL_set_tlsext_host_name.
static inline int cast_ssl_set_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

// Bytes waiting in a memory BIO: BIO_pending.
static inline long cast_bio_pending(BIO *bio) {
    return (long)BIO_pending(bio);
}

// An empty memory BIO reads as "retry later", not as the end: BIO_set_mem_eof_return(bio, -1).
static inline void cast_bio_set_mem_eof_retry(BIO *bio) {
    BIO_set_mem_eof_return(bio, -1);
}
