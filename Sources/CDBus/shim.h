// The parts of libdbus-1 the Avahi backend's probe uses: asking the system bus whether
// avahi-daemon holds its name (answered by the bus, not by the daemon, however busy it is).
// Imported only by the CastDiscoveryAvahi module.
#include <dbus/dbus.h>
