#ifndef NOTIBASE_CCURL_SHIM_H
#define NOTIBASE_CCURL_SHIM_H

// Easy and multi handles as distinct opaque types (OpaquePointer in Swift), not `void *`.
#define CURL_STRICTER
#include <curl/curl.h>

// libcurl's option and information setters are variadic, which Swift cannot call: one typed
// wrapper for each kind of argument the server passes.

static inline CURLcode notibase_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode notibase_curl_set_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}
// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode notibase_curl_set_write(CURL *easy, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}
static inline CURLcode notibase_curl_set_prereq(CURL *easy, curl_prereq_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, callback);
}
static inline CURLcode notibase_curl_set_ssl_context(CURL *easy, curl_ssl_ctx_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_SSL_CTX_FUNCTION, callback);
}
static inline CURLcode notibase_curl_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLMcode notibase_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
