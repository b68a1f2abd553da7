// libcrypt (Debian's libcrypt1, libxcrypt; headers from libcrypt-dev) for checking the bcrypt
// hashes of `cast-scan serve --web-config`'s basic_auth_users.
//
// Loaded with dlopen when a password is first checked, not linked: only `serve` with users
// uses it. The table is defined once, in this target's C file.
#include <crypt.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*cast_crypt_rn_function)(const char *phrase, const char *setting, void *data, int size);

// The one table of the process (defined in ccrypt.c): a static in an inline function
// would be one per object file that uses it, and an optimiser that inlines across files
// would read a copy never filled.
extern cast_crypt_rn_function cast_crypt_slot_storage;

static inline cast_crypt_rn_function *cast_crypt_slot(void) { return &cast_crypt_slot_storage; }

// Loads libcrypt's crypt_rn; false when it is missing. Call once (PasswordCheck does, from a
// Swift static).
static inline bool cast_crypt_load(void) {
    void *library = dlopen("libcrypt.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return false;
    cast_crypt_rn_function function = (cast_crypt_rn_function)dlsym(library, "crypt_rn");
    if (function == NULL) {
        dlclose(library);
        return false;
    }
    *cast_crypt_slot() = function;
    return true;
}

// 1 when `password` hashes to `hash` (the hash is its own setting: method, cost and salt), 0
// when it does not, -1 when libcrypt cannot use the hash. The comparison takes the same time
// wherever the first difference is.
static inline int cast_crypt_check(const char *password, const char *hash) {
    struct crypt_data *data = calloc(1, sizeof *data);
    if (data == NULL) return -1;
    const char *result = (*cast_crypt_slot())(password, hash, data, (int)sizeof *data);
    int verdict;
    if (result == NULL || result[0] == '*') {
        verdict = -1;
    } else {
        size_t length = strlen(hash), result_length = strlen(result);
        unsigned char difference = result_length != length;
        for (size_t index = 0; index < length; index++)
            difference |= (unsigned char)(result[index < result_length ? index : 0] ^ hash[index]);
        verdict = difference == 0;
    }
    explicit_bzero(data, sizeof *data);
    free(data);
    return verdict;
}
