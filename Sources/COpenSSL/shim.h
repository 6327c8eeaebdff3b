#ifndef NOTIBASE_COPENSSL_SHIM_H
#define NOTIBASE_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

// Typed wrappers for OpenSSL's variadic key generation, which Swift cannot call.

/// A new P-256 (prime256v1) key, the curve of APNs .p8 keys; NULL on failure.
static inline EVP_PKEY *notibase_generate_p256_key(void) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

/// A new RSA key of `bits` bits, the kind in Google service accounts; NULL on failure.
static inline EVP_PKEY *notibase_generate_rsa_key(size_t bits) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", bits);
}

#endif
