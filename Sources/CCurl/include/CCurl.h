// libcurl (Debian's libcurl4; headers from libcurl4-openssl-dev) for posting event reports.
//
// Loaded with dlopen the first time a report is sent, not linked: libcurl brings its TLS,
// HTTP/2, SSH and LDAP libraries, about 5 MiB resident in every cast-scan process, which only
// `watch --report` and `report send` need. curl_easy_setopt and curl_easy_getinfo are variadic,
// which Swift cannot call: one typed wrapper per argument type. The table is defined once, in
// this target's C file.
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *handle);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} cast_curl_api;

// The one table of the process (defined in ccurl.c): a static in an inline function
// would be one per object file that uses it, and an optimiser that inlines across files
// would read a copy never filled.
extern cast_curl_api cast_curl_table_storage;

static inline cast_curl_api *cast_curl_table(void) { return &cast_curl_table_storage; }

// Loads libcurl and its functions, and initialises it; false (with nothing loaded) when it is
// missing. Call once, before any other function here (CollectorClient does, from a Swift
// static, which runs it once, thread-safely).
static inline bool cast_curl_load(void) {
    const char *names[] = { "libcurl.so.4", "libcurl-gnutls.so.4" };
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) return false;
    cast_curl_api api = {
        (CURLcode (*)(long))dlsym(library, "curl_global_init"),
        (CURL *(*)(void))dlsym(library, "curl_easy_init"),
        (CURLcode (*)(CURL *, CURLoption, ...))dlsym(library, "curl_easy_setopt"),
        (CURLcode (*)(CURL *))dlsym(library, "curl_easy_perform"),
        (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(library, "curl_easy_getinfo"),
        (void (*)(CURL *))dlsym(library, "curl_easy_cleanup"),
        (const char *(*)(CURLcode))dlsym(library, "curl_easy_strerror"),
        (struct curl_slist *(*)(struct curl_slist *, const char *))dlsym(library, "curl_slist_append"),
        (void (*)(struct curl_slist *))dlsym(library, "curl_slist_free_all"),
    };
    if (!api.global_init || !api.easy_init || !api.easy_setopt || !api.easy_perform || !api.easy_getinfo ||
        !api.easy_cleanup || !api.easy_strerror || !api.slist_append || !api.slist_free_all) {
        dlclose(library);
        return false;
    }
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        dlclose(library);
        return false;
    }
    *cast_curl_table() = api;
    return true;
}

static inline CURL *cast_curl_easy_init(void) { return cast_curl_table()->easy_init(); }
static inline void cast_curl_easy_cleanup(CURL *handle) { cast_curl_table()->easy_cleanup(handle); }
static inline CURLcode cast_curl_easy_perform(CURL *handle) { return cast_curl_table()->easy_perform(handle); }
static inline const char *cast_curl_easy_strerror(CURLcode code) { return cast_curl_table()->easy_strerror(code); }
static inline struct curl_slist *cast_curl_slist_append(struct curl_slist *list, const char *text) {
    return cast_curl_table()->slist_append(list, text);
}
static inline void cast_curl_slist_free_all(struct curl_slist *list) { cast_curl_table()->slist_free_all(list); }

static inline CURLcode cast_curl_set_long(CURL *handle, CURLoption option, long value) {
    return cast_curl_table()->easy_setopt(handle, option, value);
}

static inline CURLcode cast_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return cast_curl_table()->easy_setopt(handle, option, value);
}

static inline CURLcode cast_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return cast_curl_table()->easy_setopt(handle, option, value);
}

static inline CURLcode cast_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return cast_curl_table()->easy_setopt(handle, option, value);
}

typedef size_t (*cast_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode cast_curl_set_write_function(CURL *handle, cast_curl_write_callback callback) {
    return cast_curl_table()->easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline long cast_curl_auth_basic(void) {
    return (long)CURLAUTH_BASIC;
}

static inline CURLcode cast_curl_response_code(CURL *handle, long *code) {
    return cast_curl_table()->easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
