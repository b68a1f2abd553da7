// Apple's DNS Service Discovery API: on Linux the header and libdns_sd of
// libavahi-compat-libdnssd-dev (over avahi-daemon; its pkg-config file only adds this include
// directory and -D_REENTRANT, which SwiftPM refuses); on Apple platforms the system's
// <dns_sd.h>, answered by mDNSResponder.
#if defined(__APPLE__)
#include <dns_sd.h>
#else
#include <avahi-compat-libdns_sd/dns_sd.h>
#endif
