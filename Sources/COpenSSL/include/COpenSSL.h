// The parts of Debian's OpenSSL 3 (libssl3; headers from libssl-dev) the Cast channel uses: TLS
// clients and servers over memory BIOs, so the channel does its own socket I/O; the certificates
// of device authentication; the self-signed certificate of a simulated receiver. Imported only
// by the CastChannel module (and its tests' support). The functions below stand in for OpenSSL's
// macros, which Swift cannot call, or keep a sequence of calls in C.
//
// OpenSSL is not linked: Loader.c loads it on first use (see there). Call cast_openssl_load
// before the first OpenSSL function, where a missing library can be reported.
#include <stdbool.h>
#include <stddef.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>

// Loads libssl.so.3 and libcrypto.so.3 once; true when every function cast-scan calls was found.
// False with the reason (dlerror's words) in `reason` (when not NULL) otherwise. Thread-safe.
bool cast_openssl_load(char *reason, size_t size);

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

// What the device-authentication verifier reads of a certificate that OpenSSL keeps behind
// macros (the STACK_OF(POLICYINFO) accessors) or in a struct tm.
#include <openssl/x509v3.h>
#include <openssl/objects.h>
#include <string.h>
#include <time.h>

// 1 when the certificate's certificatePolicies extension names the policy `oid` (dotted
// notation), 0 when it does not or has no such extension, -1 when the extension cannot be read.
static inline int cast_x509_has_policy(const X509 *cert, const char *oid) {
    int critical = 0;
    CERTIFICATEPOLICIES *policies = X509_get_ext_d2i(cert, NID_certificate_policies, &critical, NULL);
    if (policies == NULL) return critical == -1 ? 0 : -1;
    int found = 0;
    char text[128];
    for (int index = 0; index < sk_POLICYINFO_num(policies); index++) {
        POLICYINFO *info = sk_POLICYINFO_value(policies, index);
        if (info == NULL || info->policyid == NULL) continue;
        int length = OBJ_obj2txt(text, (int)sizeof text, info->policyid, 1);
        if (length > 0 && length < (int)sizeof text && strcmp(text, oid) == 0) found = 1;
    }
    CERTIFICATEPOLICIES_free(policies);
    return found;
}

// An ASN1_TIME as seconds since 1970 (UTC): 1 and *seconds on success, 0 when it is not a time.
static inline int cast_asn1_time_seconds(const ASN1_TIME *time, long long *seconds) {
    struct tm parts;
    if (time == NULL || ASN1_TIME_to_tm(time, &parts) != 1) return 0;
    *seconds = (long long)timegm(&parts);
    return 1;
}

// A name on one line in RFC 2253's order (`CN=…,OU=…`), UTF-8 kept: X509_NAME_print_ex with
// XN_FLAG_RFC2253 less ASN1_STRFLGS_ESC_MSB (macros Swift cannot import).
static inline int cast_x509_name_print(BIO *bio, const X509_NAME *name) {
    return X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
}

// A new RSA key of `bits` bits; NULL when it cannot be made.
static inline EVP_PKEY *cast_make_rsa_key(int bits) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
    if (context == NULL) return NULL;
    if (EVP_PKEY_keygen_init(context) <= 0 || EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) <= 0 ||
        EVP_PKEY_keygen(context, &key) <= 0) key = NULL;
    EVP_PKEY_CTX_free(context);
    return key;
}

// Adds the extension `name` = `value` (openssl's configuration syntax) to `cert`; 1 on success,
// and when `value` is NULL. An empty configuration stands behind it: certificatePolicies'
// parser wants one even for a bare OID.
static inline int cast_x509_add_extension(X509 *cert, X509 *issuer, const char *name, const char *value) {
    if (value == NULL) return 1;
    CONF *conf = NCONF_new(NULL);
    if (conf == NULL) return 0;
    X509V3_CTX context;
    X509V3_set_ctx(&context, issuer, cert, NULL, NULL, 0);
    X509V3_set_nconf(&context, conf);
    X509_EXTENSION *extension = X509V3_EXT_nconf(conf, &context, name, value);
    NCONF_free(conf);
    if (extension == NULL) return 0;
    int added = X509_add_ext(cert, extension, -1);
    X509_EXTENSION_free(extension);
    return added;
}

// A certificate for `key`, subject O=organization (when not NULL) and CN=common_name, issued by
// `issuer` (NULL: by itself) and signed with `issuer_key` using SHA-256; valid from
// now+from_seconds to now+to_seconds (`now` is the caller's time, seconds since 1970). X.509 v3
// with the extensions given (basicConstraints, keyUsage, certificatePolicies, each in openssl's
// configuration syntax, NULL to leave out), or v1 when none is. NULL on failure.
static inline X509 *cast_make_x509(EVP_PKEY *key, const char *organization, const char *common_name, X509 *issuer,
                                   EVP_PKEY *issuer_key, long serial, long long now, long from_seconds,
                                   long to_seconds, const char *basic_constraints, const char *key_usage,
                                   const char *policies) {
    time_t base = (time_t)now;
    X509 *cert = X509_new();
    if (cert == NULL) return NULL;
    int v3 = basic_constraints != NULL || key_usage != NULL || policies != NULL;
    X509_NAME *name = X509_get_subject_name(cert);
    if (X509_set_version(cert, v3 ? 2 : 0) != 1) goto fail;
    if (ASN1_INTEGER_set(X509_get_serialNumber(cert), serial) != 1) goto fail;
    if (X509_time_adj_ex(X509_getm_notBefore(cert), 0, from_seconds, &base) == NULL) goto fail;
    if (X509_time_adj_ex(X509_getm_notAfter(cert), 0, to_seconds, &base) == NULL) goto fail;
    if (X509_set_pubkey(cert, key) != 1) goto fail;
    if (organization != NULL &&
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, (const unsigned char *)organization, -1, -1, 0) != 1)
        goto fail;
    if (X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0) != 1)
        goto fail;
    if (X509_set_issuer_name(cert, issuer != NULL ? X509_get_subject_name(issuer) : name) != 1) goto fail;
    X509 *signer = issuer != NULL ? issuer : cert;
    if (cast_x509_add_extension(cert, signer, "basicConstraints", basic_constraints) != 1) goto fail;
    if (cast_x509_add_extension(cert, signer, "keyUsage", key_usage) != 1) goto fail;
    if (cast_x509_add_extension(cert, signer, "certificatePolicies", policies) != 1) goto fail;
    if (X509_sign(cert, issuer_key, EVP_sha256()) <= 0) goto fail;
    return cert;
fail:
    X509_free(cert);
    return NULL;
}

// An RSASSA-PKCS1-v1_5 signature of `data` with `key` and SHA-256 (sha256 != 0) or SHA-1, into
// `signature` (room for `*length` bytes; the length written). 1 on success.
static inline int cast_sign_pkcs1(EVP_PKEY *key, int sha256, const unsigned char *data, size_t data_length,
                                  unsigned char *signature, size_t *length) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) return 0;
    EVP_PKEY_CTX *key_context = NULL;
    int done = EVP_DigestSignInit(context, &key_context, sha256 ? EVP_sha256() : EVP_sha1(), NULL, key) == 1 &&
               EVP_PKEY_CTX_set_rsa_padding(key_context, RSA_PKCS1_PADDING) == 1 &&
               EVP_DigestSign(context, signature, length, data, data_length) == 1;
    EVP_MD_CTX_free(context);
    return done;
}

// Whether the last error on the queue is PEM's "no start line": a PEM reader came to the end
// of its input (every other error is a block that does not parse).
static inline int cast_pem_error_is_end(void) {
    unsigned long error = ERR_peek_last_error();
    return ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE;
}

// What a TLS server of `cast-scan serve --web-config` sets that OpenSSL keeps behind macros.

// A verify callback that takes any client certificate: asked for, not verified
// (RequestClientCert, RequireAnyClientCert).
static inline int cast_ssl_accept_any_certificate(int preverified, X509_STORE_CTX *context) {
    (void)preverified;
    (void)context;
    return 1;
}

// SSL_CTX_set_verify with `verify` false: the certificate is asked for (and, with
// SSL_VERIFY_FAIL_IF_NO_PEER_CERT in `mode`, required) but not checked against the CAs.
static inline void cast_ssl_ctx_set_client_verify(SSL_CTX *context, int mode, int verify) {
    SSL_CTX_set_verify(context, mode, verify ? NULL : cast_ssl_accept_any_certificate);
}

// The protocol versions allowed: SSL_CTX_set_min_proto_version and _max_; 1 on success.
static inline int cast_ssl_ctx_set_versions(SSL_CTX *context, int minimum, int maximum) {
    return SSL_CTX_set_min_proto_version(context, minimum) == 1 && SSL_CTX_set_max_proto_version(context, maximum) == 1;
}

// The key-exchange groups, by OpenSSL's names (`P-256:X25519`): SSL_CTX_set1_groups_list.
static inline int cast_ssl_ctx_set_groups(SSL_CTX *context, const char *groups) {
    return (int)SSL_CTX_set1_groups_list(context, groups);
}

// SSL_write may write part of a buffer, and the buffer may move between retries.
static inline void cast_ssl_ctx_set_partial_writes(SSL_CTX *context) {
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

// The server's cipher order, not the client's (prefer_server_cipher_suites).
static inline void cast_ssl_ctx_prefer_server_ciphers(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_CIPHER_SERVER_PREFERENCE);
}
