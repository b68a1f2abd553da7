#!/usr/bin/env python3
"""The peer of `cast-bench dns`: python-zeroconf's DNSIncoming decodes the same packets.

  dns_decode.py PACKETS-FILE [--count N]

DNSIncoming is zeroconf's own message parser (Cython-compiled in the wheel), what its
listener runs on every packet; reading .answers() makes it decode every record. Prints one
JSON object: packets, records, seconds, packetsPerSecond.
"""
import argparse
import json
import time

from zeroconf._protocol.incoming import DNSIncoming

ap = argparse.ArgumentParser()
ap.add_argument("packets")
ap.add_argument("--count", type=int, default=200_000)
args = ap.parse_args()
packets = [bytes.fromhex(line.strip()) for line in open(args.packets) if line.strip()]


def decode(n):
    records = 0
    m = len(packets)
    for i in range(n):
        message = DNSIncoming(packets[i % m])
        records += len(message.answers())
    return records


decode(min(args.count, 10_000))
t0 = time.perf_counter()
records = decode(args.count)
seconds = time.perf_counter() - t0
print(json.dumps({"packets": args.count, "records": records, "seconds": seconds,
                  "packetsPerSecond": args.count / seconds, "distinctPackets": len(packets)}))
