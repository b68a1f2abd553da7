// The parts of Debian's OpenSSL 3 (libssl3; headers from libssl-dev) the Cast channel uses: TLS
// clients and servers over memory BIOs, so the channel does its own socket I/O, and the
// self-signed certificate of a simulated receiver. Imported only by the CastChannel module. The
// functions below stand in for OpenSSL's macros, which Swift cannot call, or keep a sequence of
// calls in C.
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

// A self-signed X.509 v1 certificate for `cast-scan publish`'s receivers, as devices present
// one: a new 2048-bit RSA key, the subject and issuer CN=common_name, serial `serial`, valid
// from an hour ago for `days` days, signed with SHA-256. 1 and the key and certificate on
// success (the caller frees them), 0 otherwise (nothing to free).
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
static inline int cast_make_certificate(const char *common_name, long serial, int days, EVP_PKEY **key_out, X509 **cert_out) {
    EVP_PKEY *key = NULL;
    ERR_clear_error();
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
    if (context == NULL) return 0;
    if (EVP_PKEY_keygen_init(context) <= 0 || EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) <= 0 ||
        EVP_PKEY_keygen(context, &key) <= 0) {
        EVP_PKEY_CTX_free(context);
        return 0;
    }
    EVP_PKEY_CTX_free(context);
    X509 *cert = X509_new();
    X509_NAME *name = NULL;
    if (cert == NULL) goto fail;
    if (X509_set_version(cert, 0) != 1) goto fail;  // v1
    if (ASN1_INTEGER_set(X509_get_serialNumber(cert), serial) != 1) goto fail;
    if (X509_gmtime_adj(X509_getm_notBefore(cert), -3600) == NULL) goto fail;
    if (X509_gmtime_adj(X509_getm_notAfter(cert), (long)days * 86400) == NULL) goto fail;
    if (X509_set_pubkey(cert, key) != 1) goto fail;
    name = X509_get_subject_name(cert);
    if (X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0) != 1) goto fail;
    if (X509_set_issuer_name(cert, name) != 1) goto fail;
    if (X509_sign(cert, key, EVP_sha256()) <= 0) goto fail;
    *key_out = key;
    *cert_out = cert;
    return 1;
fail:
    X509_free(cert);
    EVP_PKEY_free(key);
    return 0;
}
