#!/usr/bin/env python3
"""castlab's hostile packet generator: mDNS traffic a querier must survive.

Runs in the castlab-hostile namespace (`Scripts/castlab inject KIND ...`), whose one interface
holds an on-link source (10.213.254.254, fd00:ca57::fe:fe) and an off-link one (192.0.2.7,
2001:db8::7: not in the lab's subnets). Sends only to the mDNS groups, from port 5353, on that
interface. Packets are built by hand (standard library only), so they can be wrong on purpose.

  malformed [--repeat N]            every kind of packet the DNS codec rejects
  device --instance NAME [--source onlink|offlink] [--ttl S]
                                    a complete Cast device (PTR, SRV, TXT, A, AAAA), announced
  ptr --instance NAME [--source ...] [--ttl S]
                                    only a device's PTR record: an instance nobody resolves yet
                                    (its SRV, TXT and addresses follow with `device`)
  goodbye --instance NAME [--source ...]
                                    TTL-0 records for a device's PTR, SRV and TXT
  ttl0-flood --count N              TTL-0 records for N unknown instances
  unique-flood --count N [--ttl S]  N unique fake Cast devices (PTR, SRV, TXT, A each)
  query [--name N] [--type T] [--repeat R] [--interval S]
                                    another querier: multicast questions without known answers
                                    (what lets listeners notice a silent device, RFC 6762 10.5)

--family 4|6|both (default both); --rate P: at most P packets a second (default: as fast as the
kernel takes them, which overflows a listener's socket buffer, so most of a flood is lost there).
Prints one line: what was sent, how many packets.
"""
from __future__ import annotations

import argparse
import random
import socket
import struct
import sys
import time

SOURCES = {
    ("onlink", 4): "10.213.254.254", ("offlink", 4): "192.0.2.7",
    ("onlink", 6): "fd00:ca57::fe:fe", ("offlink", 6): "2001:db8::7",
}
GROUPS = {4: "224.0.0.251", 6: "ff02::fb"}
SERVICE = "_googlecast._tcp.local"
IFACE = "eth0"
T_A, T_PTR, T_TXT, T_AAAA, T_SRV = 1, 12, 16, 28, 33


def name(text: str) -> bytes:
    out = b""
    for label in text.rstrip(".").split("."):
        raw = label.encode()
        out += bytes([len(raw)]) + raw
    return out + b"\x00"


def header(qd=0, an=0, ns=0, ar=0, flags=0x8400, ident=0) -> bytes:
    return struct.pack("!HHHHHH", ident, flags, qd, an, ns, ar)


def rr(owner: str, rtype: int, ttl: int, rdata: bytes, flush: bool = False) -> bytes:
    cls = 1 | (0x8000 if flush else 0)
    return name(owner) + struct.pack("!HHIH", rtype, cls, ttl, len(rdata)) + rdata


def txt(entries: list[str]) -> bytes:
    return b"".join(bytes([len(e.encode())]) + e.encode() for e in entries) or b"\x00"


def device_records(instance: str, host: str, v4: str | None, v6: str | None, ttl: int,
                   port: int = 8009) -> list[bytes]:
    full = f"{instance}.{SERVICE}"
    ident = f"{random.getrandbits(128):032x}"
    out = [
        rr(SERVICE, T_PTR, ttl, name(full)),
        rr(full, T_SRV, ttl, struct.pack("!HHH", 0, 0, port) + name(host), flush=True),
        rr(full, T_TXT, ttl, txt([f"id={ident}", "ve=05", "md=Chromecast", f"fn={instance}",
                                  "ca=4101", "st=0", "rs="]), flush=True),
    ]
    if v4:
        out.append(rr(host, T_A, ttl, socket.inet_pton(socket.AF_INET, v4), flush=True))
    if v6:
        out.append(rr(host, T_AAAA, ttl, socket.inet_pton(socket.AF_INET6, v6), flush=True))
    return out


def response(records: list[bytes]) -> bytes:
    return header(an=len(records)) + b"".join(records)


def malformed() -> list[tuple[str, bytes]]:
    """(what, packet) for each way a packet can be wrong."""
    ptr_q = name(SERVICE) + struct.pack("!HH", T_PTR, 1)
    good_name = name(f"x.{SERVICE}")
    cases = [
        ("header cut short", b"\x00\x00\x84\x00\x00"),
        ("counts promise a question that is not there", header(qd=1)),
        ("65535 answers in a 12-byte packet", header(an=0xFFFF)),
        ("label length 0x50 (neither label nor pointer)", header(qd=1) + b"\x50abc\x00" + b"\x00\x0c\x00\x01"),
        ("name runs past the end", header(qd=1) + b"\x0aabc"),
        ("name longer than 255 bytes", header(qd=1) + (b"\x3f" + b"a" * 63) * 5 + b"\x00\x00\x0c\x00\x01"),
        ("pointer to itself", header(qd=1) + b"\xc0\x0c\x00\x0c\x00\x01"),
        ("pointer past the end", header(qd=1) + b"\xc0\xff\x00\x0c\x00\x01"),
        ("pointer back into its own name", header(qd=1) + b"\x03abc\xc0\x0c\x00\x0c\x00\x01"),
        ("pointer ahead into the middle of a label", header(qd=2) + b"\xc0\x13\x00\x0c\x00\x01" + ptr_q),
        ("SRV of 3 bytes", header(an=1) + good_name + struct.pack("!HHIH", T_SRV, 1, 120, 3) + b"\x00\x00\x00"),
        ("A of 5 bytes", header(an=1) + good_name + struct.pack("!HHIH", T_A, 1, 120, 5) + b"\x0a\x00\x00\x01\x00"),
        ("AAAA of 4 bytes", header(an=1) + good_name + struct.pack("!HHIH", T_AAAA, 1, 120, 4) + b"\x0a\x00\x00\x01"),
        ("record data past the end", header(an=1) + good_name + struct.pack("!HHIH", T_TXT, 1, 120, 200) + b"\x05hello"),
        ("PTR data that is not a name", header(an=1) + name(SERVICE) + struct.pack("!HHIH", T_PTR, 1, 120, 4) + b"\x09abc"),
        ("message larger than 9000 bytes", header(an=1) + name(SERVICE) + struct.pack("!HHIH", T_TXT, 1, 120, 9100)
         + (b"\xff" + b"a" * 255) * 35 + b"\x00" * 140),
    ]
    # Read record by record: the bad record is skipped (malformedRecords), the good one kept.
    cases.append(("A of 5 bytes beside a good A", header(an=2) + good_name + struct.pack("!HHIH", T_A, 1, 120, 5)
                  + b"\x0a\x00\x00\x01\x00" + good_name + struct.pack("!HHIH", T_A, 1, 120, 4) + b"\x0a\x00\x00\x01"))
    rng = random.Random(1)
    for i in range(8):
        cases.append((f"random bytes #{i}", header(qd=rng.randrange(4), an=rng.randrange(8))
                      + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 600)))))
    return cases


class Sender:
    def __init__(self, family: int, source: str) -> None:
        self.family = family
        af = socket.AF_INET if family == 4 else socket.AF_INET6
        self.sock = socket.socket(af, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        index = socket.if_nametoindex(IFACE)
        if family == 4:
            self.sock.bind((source, 5353))
            self.sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(source))
            self.sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
            self.dest = (GROUPS[4], 5353)
        else:
            self.sock.bind((source, 5353, 0, 0))
            self.sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, index)
            self.sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 255)
            self.dest = (GROUPS[6], 5353, 0, index)
        self.sent = 0

    def send(self, packet: bytes) -> None:
        for attempt in range(50):
            try:
                self.sock.sendto(packet, self.dest)
                self.sent += 1
                return
            except BlockingIOError:
                time.sleep(0.001)
            except OSError as exc:
                if exc.errno == 105 and attempt < 49:  # ENOBUFS under a flood: wait, retry
                    time.sleep(0.002)
                    continue
                raise


def packets_for(args) -> list[bytes]:
    if args.kind == "query":
        qtype = {"A": T_A, "PTR": T_PTR, "TXT": T_TXT, "AAAA": T_AAAA, "SRV": T_SRV}[args.type]
        return [header(qd=1, flags=0) + name(args.name) + struct.pack("!HH", qtype, 1)]
    if args.kind == "malformed":
        return [p for _, p in malformed()] * args.repeat
    if args.kind in ("device", "goodbye", "ptr"):
        host = f"hostile-{args.instance.lower()}.local"
        v4, v6 = SOURCES[(args.source, 4)], SOURCES[(args.source, 6)]
        ttl = 0 if args.kind == "goodbye" else args.ttl
        recs = device_records(args.instance, host, v4, v6, ttl)
        if args.kind == "goodbye":
            recs = recs[:3]
        elif args.kind == "ptr":
            recs = recs[:1]
        return [response(recs)]
    if args.kind == "ttl0-flood":
        out = []
        for i in range(0, args.count, 10):
            recs = []
            for j in range(i, min(i + 10, args.count)):
                inst = f"Gone-{j}-{random.getrandbits(32):08x}"
                recs += device_records(inst, f"gone-{j}.local", "10.213.254.254", None, 0)
            out.append(response(recs))
        return out
    if args.kind == "unique-flood":
        out = []
        for i in range(0, args.count, 6):
            recs = []
            for j in range(i, min(i + 6, args.count)):
                inst = f"Flood-{j}-{random.getrandbits(32):08x}"
                recs += device_records(inst, f"flood-{j}-{random.getrandbits(24):06x}.local",
                                       f"10.213.{200 + (j >> 16) % 50}.{(j >> 8) & 255}", None, args.ttl)[:4]
            out.append(response(recs))
        return out
    raise SystemExit(f"hostile: unknown kind {args.kind}")


def main() -> int:
    ap = argparse.ArgumentParser(prog="castlab inject", description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=["malformed", "device", "ptr", "goodbye", "ttl0-flood", "unique-flood", "query"])
    ap.add_argument("--name", default=SERVICE)
    ap.add_argument("--type", choices=["A", "PTR", "TXT", "AAAA", "SRV"], default="PTR")
    ap.add_argument("--interval", type=float, default=1.0)
    ap.add_argument("--rate", type=float, default=0)
    ap.add_argument("--instance")
    ap.add_argument("--source", choices=["onlink", "offlink"], default="onlink")
    ap.add_argument("--family", choices=["4", "6", "both"], default="both")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--ttl", type=int, default=120)
    args = ap.parse_args()
    if args.kind in ("device", "ptr", "goodbye") and not args.instance:
        ap.error(f"{args.kind} needs --instance")
    if not 0 < args.count <= 1_000_000 or not 0 < args.repeat <= 1000 or not 0 <= args.ttl <= 86400:
        ap.error("--count 1..1000000, --repeat 1..1000, --ttl 0..86400")
    families = [4, 6] if args.family == "both" else [int(args.family)]
    if not 0 <= args.interval <= 60 or not 0 <= args.rate <= 1e6:
        ap.error("--interval 0..60, --rate 0..1000000")
    source = "onlink" if args.kind in ("malformed", "ttl0-flood", "unique-flood", "query") else args.source
    packets = packets_for(args)
    senders = [Sender(family, SOURCES[(source, family)]) for family in families]
    rounds = args.repeat if args.kind == "query" else 1
    for r in range(rounds):
        if r:
            time.sleep(args.interval)
        start, n = time.monotonic(), 0
        for p in packets:
            for sender in senders:
                sender.send(p)
                n += 1
            if args.rate and n % 50 < len(senders):
                ahead = start + n / args.rate - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)
    total = sum(s.sent for s in senders)
    print(f"hostile: {args.kind} from {source} ({'+'.join(f'IPv{f}' for f in families)}): {total} packets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
