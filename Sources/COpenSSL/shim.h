#ifndef NOTIBASE_COPENSSL_SHIM_H
#define NOTIBASE_COPENSSL_SHIM_H
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
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

#endif
