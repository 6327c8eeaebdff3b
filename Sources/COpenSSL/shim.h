#ifndef NOTIBASE_COPENSSL_SHIM_H
#define NOTIBASE_COPENSSL_SHIM_H
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/tls1.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>


// Typed wrappers for OpenSSL's variadic key generation, which Swift cannot call.

/// A new P-256 (prime256v1) key, the curve of APNs .p8 keys; NULL on failure.
static inline EVP_PKEY *notibase_generate_p256_key(void) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

/// A new RSA key of `bits` bits, the kind in Google service accounts; NULL on failure.
static inline EVP_PKEY *notibase_generate_rsa_key(size_t bits) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", bits);
}

/// HMAC-SHA256 of `data` under `key` into `out` (32 bytes), with `mac` fetched once by the caller
/// (`EVP_MAC_fetch(NULL, "HMAC", NULL)`); 1 on success. In C because the digest is named through
/// an OSSL_PARAM array.
static inline int notibase_hmac_sha256(EVP_MAC *mac, const unsigned char *key, size_t key_length,
                                       const unsigned char *data, size_t data_length, unsigned char *out) {
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    if (context == NULL) return 0;
    size_t written = 0;
    int ok = EVP_MAC_init(context, key, key_length, params) == 1
        && EVP_MAC_update(context, data, data_length) == 1
        && EVP_MAC_final(context, out, &written, 32) == 1
        && written == 32;
    EVP_MAC_CTX_free(context);
    return ok;
}

/// An HMAC-SHA256 context keyed with `key`, never used itself: each MAC under the key works on
/// a copy (`notibase_hmac_sha256_keyed`), which skips naming the digest and keying, most of the
/// cost of a short message's MAC. NULL on failure; freed with EVP_MAC_CTX_free.
static inline EVP_MAC_CTX *notibase_hmac_sha256_key(EVP_MAC *mac, const unsigned char *key, size_t key_length) {
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    if (context == NULL) return NULL;
    if (EVP_MAC_init(context, key, key_length, params) != 1) {
        EVP_MAC_CTX_free(context);
        return NULL;
    }
    return context;
}

/// HMAC-SHA256 of `data` under the key `keyed` holds (`notibase_hmac_sha256_key`; only read, so
/// any number of threads may use it at once) into `out` (32 bytes); 1 on success.
static inline int notibase_hmac_sha256_keyed(const EVP_MAC_CTX *keyed, const unsigned char *data, size_t data_length, unsigned char *out) {
    EVP_MAC_CTX *context = EVP_MAC_CTX_dup(keyed);
    if (context == NULL) return 0;
    size_t written = 0;
    int ok = EVP_MAC_update(context, data, data_length) == 1
        && EVP_MAC_final(context, out, &written, 32) == 1
        && written == 32;
    EVP_MAC_CTX_free(context);
    return ok;
}

// Typed wrappers for TLS macros (they expand to SSL_ctrl / SSL_CTX_ctrl calls).

/// Sets the SNI host name of a client connection; 1 on success.
static inline int notibase_ssl_set_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// Lets SSL_write accept partial writes and a moved buffer on retry, as a non-blocking client needs.
static inline void notibase_ssl_ctx_set_nonblocking_modes(SSL_CTX *context) {
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

/// Requires TLS 1.2 or later (HTTP/2 demands it); 1 on success.
static inline int notibase_ssl_ctx_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// Refuses a peer's request to renegotiate (TLS 1.2's HelloRequest): the connection goes on with
/// its first handshake's keys, and no read or write waits on a second handshake.
static inline void notibase_ssl_ctx_refuse_renegotiation(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION);
}

#endif
