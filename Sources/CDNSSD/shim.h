// Apple's DNS Service Discovery API: on Linux the header and libdns_sd of
// libavahi-compat-libdnssd-dev (over avahi-daemon; its pkg-config file only adds this include
// directory and -D_REENTRANT, which SwiftPM refuses); on Apple platforms the system's
// <dns_sd.h>, answered by mDNSResponder.
#if defined(__APPLE__)
#include <dns_sd.h>
#else
#include <avahi-compat-libdns_sd/dns_sd.h>
#include <avahi-common/malloc.h>
#include <stdlib.h>

// Avahi's compatibility library (0.8, compat.c) allocates a DNSServiceRef with avahi_new(),
// which does not zero it, sets only the callback field of the call that made it, and on a
// daemon disconnect calls the first non-NULL of the browse, resolve and domain callbacks: a
// resolve or record query alive at a daemon restart jumps to whatever its browse field held.
// Zeroed allocations make those fields NULL. avahi_set_allocator keeps the pointer: the
// structure is static.
static void *cast_discovery_zeroing_malloc(size_t size) { return calloc(1, size ? size : 1); }

static inline void cast_discovery_zero_avahi_allocations(void) {
    static const AvahiAllocator allocator = { cast_discovery_zeroing_malloc, free, realloc, calloc };
    avahi_set_allocator(&allocator);
}
#endif
