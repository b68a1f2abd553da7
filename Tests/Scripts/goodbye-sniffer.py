#!/usr/bin/env python3
"""Prints when each service instance's goodbye (a PTR answer with TTL 0) is heard on a link.

Run in a lab namespace with the lab's venv (python-zeroconf reads the packets):
  goodbye-sniffer.py IFNAME TYPE     e.g. lab0 _googlecast._tcp.local.
It listens on 5353 beside the namespace's avahi-daemon (SO_REUSEADDR, as avahi does), prints
"ready" once joined, then "EPOCH-SECONDS INSTANCE" for the first goodbye of each instance,
until it is killed.
"""
import socket
import struct
import sys
import time

from zeroconf._protocol.incoming import DNSIncoming
from zeroconf.const import _TYPE_PTR

ifname, service_type = sys.argv[1], sys.argv[2].lower()
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("", 5353))
mreq = struct.pack("4s4si", socket.inet_aton("224.0.0.251"), socket.inet_aton("0.0.0.0"), socket.if_nametoindex(ifname))
sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
print("ready", flush=True)
seen = set()
while True:
    data, _ = sock.recvfrom(9000)
    heard = time.time()
    try:
        message = DNSIncoming(data)
    except Exception:
        continue
    for record in message.answers():
        if record.type == _TYPE_PTR and record.ttl == 0 and record.name.lower() == service_type:
            instance = record.alias[: -len(service_type) - 1]
            if instance not in seen:
                seen.add(instance)
                print(f"{heard:.3f} {instance}", flush=True)
