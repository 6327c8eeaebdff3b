#ifndef NOTIBASE_CCURL_SHIM_H
#define NOTIBASE_CCURL_SHIM_H

#include <curl/curl.h>

// Typed wrappers for libcurl's variadic option and info functions, which Swift cannot call.

typedef size_t (*notibase_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode notibase_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode notibase_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode notibase_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode notibase_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode notibase_curl_easy_setopt_blob(CURL *handle, CURLoption option, struct curl_blob *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode notibase_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, notibase_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode notibase_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode notibase_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode notibase_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
