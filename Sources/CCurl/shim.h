// libcurl (Debian's libcurl4-openssl-dev) for posting event reports. curl_easy_setopt and
// curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per argument type.
#include <curl/curl.h>

static inline CURLcode cast_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cast_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cast_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cast_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*cast_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode cast_curl_set_write_function(CURL *handle, cast_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline long cast_curl_auth_basic(void) {
    return (long)CURLAUTH_BASIC;
}

static inline CURLcode cast_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
