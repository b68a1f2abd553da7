#!/usr/bin/env python3
"""hold-5353.py: holds UDP port 5353 on 0.0.0.0 and [::] (IPV6_V6ONLY), to see who else can
bind it. Run it in a lab namespace, as the user whose sockets it should stand for:

    ip netns exec castlab-sender setpriv --reuid=avahi --regid=avahi --clear-groups \\
        /usr/bin/python3 -u Scripts/lab/hold-5353.py --reuseport

By default neither SO_REUSEADDR nor SO_REUSEPORT is set. Prints one line per family,
"hold-5353: IPv4 bound" or "hold-5353: IPv4 bind failed: ...", then "hold-5353: holding" and
keeps the sockets until SIGTERM or SIGINT (exit 0). Exit 1 when a family could not be bound
(it still holds the others until signalled, so the caller sees what it got).

What Linux allows on one address and port (udp_lib_lport_inuse, seen in the lab, kernel 6.x):
two sockets may share it when both set SO_REUSEADDR before their bind (whatever their users),
or when both set SO_REUSEPORT and belong to the same user. So a socket with SO_REUSEPORT and
without SO_REUSEADDR, bound as avahi after avahi-daemon (which sets both), sits beside the
daemon and keeps every other user's socket off the port; one with neither option, bound
before the daemon, keeps the daemon off too (avahi-daemon then gives up that family, or
exits when it has none).
"""

import argparse
import signal
import socket
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--families", default="4,6", help="4, 6 or 4,6 (default)")
    p.add_argument("--reuseaddr", action="store_true", help="set SO_REUSEADDR before bind")
    p.add_argument("--reuseport", action="store_true", help="set SO_REUSEPORT before bind")
    p.add_argument("--port", type=int, default=5353)
    a = p.parse_args()
    held, failed = [], 0
    for family in a.families.split(","):
        v6 = family.strip() == "6"
        s = socket.socket(socket.AF_INET6 if v6 else socket.AF_INET, socket.SOCK_DGRAM)
        if a.reuseaddr:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if a.reuseport:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if v6:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        name = "IPv6" if v6 else "IPv4"
        try:
            s.bind(("::" if v6 else "0.0.0.0", a.port))
            held.append(s)
            print(f"hold-5353: {name} bound", flush=True)
        except OSError as error:
            failed += 1
            s.close()
            print(f"hold-5353: {name} bind failed: {error}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1 if failed else 0))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(1 if failed else 0))
    print("hold-5353: holding", flush=True)
    while True:
        signal.pause()


if __name__ == "__main__":
    main()
