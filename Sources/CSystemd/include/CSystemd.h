// libsystemd's sd_notify (Debian's libsystemd0; headers from libsystemd-dev), for telling the
// service manager that `cast-scan serve` is ready or stopping.
//
// Loaded with dlopen the first time a notification is due, not linked: libsystemd brings
// libgcrypt, liblzma, libzstd, liblz4 and libcap into every cast-scan process, and only
// `serve` under systemd uses one call of it. The slot is defined once, in this target's C file.
#include <systemd/sd-daemon.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>

typedef int (*cast_sd_notify_function)(int unset_environment, const char *state);

// The one table of the process (defined in csystemd.c): a static in an inline function
// would be one per object file that uses it, and an optimiser that inlines across files
// would read a copy never filled.
extern cast_sd_notify_function cast_sd_notify_slot_storage;

static inline cast_sd_notify_function *cast_sd_notify_slot(void) { return &cast_sd_notify_slot_storage; }

// Loads libsystemd's sd_notify; false when it is missing. Call once (ServiceManager does,
// from a Swift static).
static inline bool cast_sd_load(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return false;
    cast_sd_notify_function function = (cast_sd_notify_function)dlsym(library, "sd_notify");
    if (function == NULL) {
        dlclose(library);
        return false;
    }
    *cast_sd_notify_slot() = function;
    return true;
}

// sd_notify(0, state): > 0 when sent, 0 when no service manager listens, < 0 (-errno) on error.
static inline int cast_sd_notify(const char *state) { return (*cast_sd_notify_slot())(0, state); }
