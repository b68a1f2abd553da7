#!/usr/bin/env python3
"""mdns-traffic.py: counts the mDNS traffic of the lab's sender, seen from the bridge.

Run it in castlab-hub (root: it opens an AF_PACKET socket), on the bridge port that faces the
sender (vsender; vsender1 too once `castlab link add` made lab1):

    ip netns exec castlab-hub python3 Scripts/lab/mdns-traffic.py --duration 60 --out t.json

Why there: a bridge port sees every frame the sender puts on its link and every frame the
bridge hands it, whatever their addresses, ports or sockets, and nothing in the sender (no
process, no socket option) can hide from it or be disturbed by it. A socket joined to the
group in a device namespace would miss the legacy-unicast answers and the sender's unicast
queries. The frame's direction on the port says who sent it: one received on vsender came from
the sender's lab0; one the bridge sent out of vsender goes to the sender (a device's answer,
multicast or unicast, or another host's query).

Counted, for UDP to or from port 5353 only:
  - queries the sender sent (QR=0): by family, source port (5353, or an ephemeral one: a
    legacy-unicast query, RFC 6762 section 6.7), destination (the group, or unicast), number of
    questions, known answers (answer records in a query), authority records (a probe), TC, QU
    questions; the questions asked; their shapes; a timeline;
  - responses the sender sent (avahi-daemon answering for its own host name, goodbyes);
  - responses to the sender from others (the devices): by family, destination (multicast or
    unicast), source address, records;
  - queries from others that reached the sender.

What it cannot tell apart: avahi-daemon and cast-scan's querier send from the same address
and, on 5353, the same port, with the same packet layout (id 0, PTR questions, known answers,
TC splits). On the wire only the source port separates them: a query from an ephemeral port is
the querier's (avahi-daemon never sends one), one from 5353 may be either. See
Benchmarks/traffic for how the runs are compared.

Writes one JSON object (--out FILE, or stdout) when --duration ends, or on SIGINT/SIGTERM.
Prints "mdns-traffic: listening on ..." to stderr once its sockets are open (--ready FILE:
also creates FILE then). Python 3 standard library only.
"""

import argparse
import ipaddress
import json
import os
import select
import signal
import socket
import struct
import sys
import time
from collections import Counter
from datetime import datetime, timezone

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
SOL_PACKET = 263
PACKET_STATISTICS = 6
MDNS_PORT = 5353
GROUP4 = ipaddress.ip_address("224.0.0.251")
GROUP6 = ipaddress.ip_address("ff02::fb")
TYPES = {1: "A", 12: "PTR", 16: "TXT", 28: "AAAA", 33: "SRV", 47: "NSEC", 255: "ANY"}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--interface", action="append",
                   help="bridge port facing the sender (repeatable; default: vsender, and vsender1 when it exists)")
    p.add_argument("--duration", type=float, default=60.0, help="seconds to count (default 60)")
    p.add_argument("--bucket", type=float, default=10.0, help="timeline bucket in seconds (default 10)")
    p.add_argument("--out", help="write the JSON summary here (default: stdout)")
    p.add_argument("--ready", help="create this file once listening")
    p.add_argument("--label", help="a label copied into the summary")
    return p.parse_args()


def read_name(buf, off, depth=0):
    """A DNS name at off: (text, offset after it). Bounded: at most 255 bytes of labels and
    64 pointers; raises ValueError on a malformed name."""
    labels, jumps, end, total = [], 0, None, 0
    while True:
        if off >= len(buf):
            raise ValueError("name runs past the packet")
        n = buf[off]
        if n == 0:
            off += 1
            break
        if n & 0xC0 == 0xC0:
            if off + 1 >= len(buf):
                raise ValueError("truncated pointer")
            target = ((n & 0x3F) << 8) | buf[off + 1]
            if end is None:
                end = off + 2
            jumps += 1
            if jumps > 64 or target >= off:
                raise ValueError("bad pointer")
            off = target
            continue
        if n & 0xC0:
            raise ValueError("bad label type")
        label = buf[off + 1:off + 1 + n]
        if len(label) != n:
            raise ValueError("truncated label")
        total += n + 1
        if total > 255:
            raise ValueError("name too long")
        labels.append(label.decode("utf-8", "backslashreplace"))
        off += 1 + n
    return ".".join(labels) + ".", (end if end is not None else off)


class Side:
    """Counts for one kind of message (queries or responses) from one party."""

    def __init__(self, bucket):
        self.total = 0
        self.bytes = 0
        self.by = {k: Counter() for k in ("family", "sourcePort", "destination", "questions",
                                          "familyAndPort", "source")}
        self.question_names = Counter()
        self.shapes = Counter()
        self.questions = self.known_answers = self.authority = self.additional = 0
        self.truncated = self.qu_questions = self.malformed = 0
        self.records = 0
        self.timeline = Counter()
        self.bucket = bucket

    def add(self, t, family, src, sport, dst, payload, header, detail):
        _, flags, qd, an, ns, ar = header
        port = "5353" if sport == MDNS_PORT else "ephemeral"
        multicast = dst in (GROUP4, GROUP6)
        dest = "multicast" if multicast else "unicast"
        self.total += 1
        self.bytes += len(payload)
        self.by["family"][family] += 1
        self.by["sourcePort"][port] += 1
        self.by["destination"][dest] += 1
        self.by["questions"][str(qd)] += 1
        self.by["familyAndPort"][f"{family}/{port}"] += 1
        self.by["source"][str(src)] += 1
        self.questions += qd
        self.known_answers += an
        self.authority += ns
        self.additional += ar
        self.records += an + ns + ar
        tc = bool(flags & 0x0200)
        self.truncated += tc
        self.timeline[(int(t // self.bucket), port)] += 1
        qu = 0
        if detail:
            off = 12
            try:
                for _ in range(qd):
                    name, off = read_name(payload, off)
                    if off + 4 > len(payload):
                        raise ValueError("truncated question")
                    qtype, qclass = struct.unpack_from("!HH", payload, off)
                    off += 4
                    if qclass & 0x8000:
                        qu += 1
                    self.question_names[f"{name} {TYPES.get(qtype, qtype)}"] += 1
            except ValueError:
                self.malformed += 1
            self.qu_questions += qu
        self.shapes[(family, port, dest, qd, an, ns, ar, tc, qu > 0)] += 1

    def summary(self, shapes=True):
        out = {
            "total": self.total, "bytes": self.bytes,
            "byFamily": dict(self.by["family"]), "bySourcePort": dict(self.by["sourcePort"]),
            "byDestination": dict(self.by["destination"]),
            "byFamilyAndPort": dict(sorted(self.by["familyAndPort"].items())),
            "bySource": dict(self.by["source"].most_common(50)),
            "records": self.records,
        }
        if shapes:
            out.update({
                "byQuestions": dict(sorted(self.by["questions"].items(), key=lambda kv: int(kv[0]))),
                "questions": self.questions, "knownAnswers": self.known_answers,
                "authorityRecords": self.authority, "truncated": self.truncated,
                "quQuestions": self.qu_questions, "malformed": self.malformed,
                "questionNames": dict(self.question_names.most_common(40)),
                "shapes": [
                    {"family": f, "sourcePort": p, "destination": d, "questions": q, "knownAnswers": a,
                     "authority": n, "additional": r, "tc": tc, "qu": qu, "count": c}
                    for (f, p, d, q, a, n, r, tc, qu), c in self.shapes.most_common(40)
                ],
            })
            buckets = sorted({b for b, _ in self.timeline})
            out["timeline"] = [
                {"from": round(b * self.bucket, 3), "5353": self.timeline[(b, "5353")],
                 "ephemeral": self.timeline[(b, "ephemeral")]} for b in buckets
            ]
        return out


def parse_frame(frame):
    """(family, src, dst, sport, dport, udp payload) of a UDP frame, or None."""
    if len(frame) < 14:
        return None
    ethertype = struct.unpack_from("!H", frame, 12)[0]
    off = 14
    if ethertype == 0x8100 and len(frame) >= 18:
        ethertype = struct.unpack_from("!H", frame, 16)[0]
        off = 18
    if ethertype == 0x0800:
        if len(frame) < off + 20:
            return None
        vihl, _, length, _, frag, _, proto = struct.unpack_from("!BBHHHBB", frame, off)
        ihl = (vihl & 0x0F) * 4
        if proto != 17 or frag & 0x1FFF:  # not UDP, or not the first fragment
            return None
        src = ipaddress.IPv4Address(frame[off + 12:off + 16])
        dst = ipaddress.IPv4Address(frame[off + 16:off + 20])
        end = min(len(frame), off + length)
        off += ihl
        family = "ipv4"
    elif ethertype == 0x86DD:
        if len(frame) < off + 40:
            return None
        length, nxt = struct.unpack_from("!HB", frame, off + 4)
        src = ipaddress.IPv6Address(frame[off + 8:off + 24])
        dst = ipaddress.IPv6Address(frame[off + 24:off + 40])
        end = min(len(frame), off + 40 + length)
        off += 40
        for _ in range(8):  # hop-by-hop, routing, destination options, fragment
            if nxt in (0, 43, 60) and off + 2 <= end:
                nxt, hlen = frame[off], (frame[off + 1] + 1) * 8
                off += hlen
            elif nxt == 44 and off + 8 <= end:
                if struct.unpack_from("!H", frame, off + 2)[0] & 0xFFF8:
                    return None  # not the first fragment
                nxt = frame[off]
                off += 8
            else:
                break
        if nxt != 17:
            return None
        family = "ipv6"
    else:
        return None
    if off + 8 > end:
        return None
    sport, dport = struct.unpack_from("!HH", frame, off)
    return family, src, dst, sport, dport, bytes(frame[off + 8:end])


def main():
    args = parse_args()
    names = args.interface or ["vsender"] + (["vsender1"] if os.path.exists("/sys/class/net/vsender1") else [])
    socks = []
    for name in names:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.bind((name, 0))
        s.setblocking(False)
        socks.append(s)
    sender_q, sender_r, device_r, other_q = (Side(args.bucket) for _ in range(4))
    counts = {"frames": 0, "udp5353": 0, "notDNS": 0}
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    print(f"mdns-traffic: listening on {', '.join(names)} for {args.duration:g} s", file=sys.stderr, flush=True)
    if args.ready:
        open(args.ready, "w").close()
    started = time.monotonic()
    wall = datetime.now(timezone.utc)
    deadline = started + args.duration
    while not stop:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            ready, _, _ = select.select(socks, [], [], min(left, 0.5))
        except InterruptedError:
            continue
        for s in ready:
            while True:
                try:
                    frame, addr = s.recvfrom(65535)
                except (BlockingIOError, InterruptedError):
                    break
                counts["frames"] += 1
                to_sender = addr[2] == PACKET_OUTGOING
                parsed = parse_frame(frame)
                if parsed is None:
                    continue
                family, src, dst, sport, dport, payload = parsed
                if MDNS_PORT not in (sport, dport):
                    continue
                counts["udp5353"] += 1
                if len(payload) < 12:
                    counts["notDNS"] += 1
                    continue
                header = struct.unpack_from("!HHHHHH", payload, 0)
                response = bool(header[1] & 0x8000)
                t = time.monotonic() - started
                if not to_sender:
                    (sender_r if response else sender_q).add(t, family, src, sport, dst, payload, header, not response)
                elif response:
                    device_r.add(t, family, src, sport, dst, payload, header, False)
                else:
                    other_q.add(t, family, src, sport, dst, payload, header, False)
    elapsed = time.monotonic() - started
    kernel = {"packets": 0, "drops": 0}
    for s in socks:
        try:
            packets, drops = struct.unpack("II", s.getsockopt(SOL_PACKET, PACKET_STATISTICS, 8))
            kernel["packets"] += packets
            kernel["drops"] += drops
        except OSError:
            pass
        s.close()
    summary = {
        "tool": "mdns-traffic", "label": args.label, "interfaces": names,
        "startedAt": wall.isoformat(timespec="seconds"), "durationSeconds": round(elapsed, 3),
        "frames": counts, "kernel": kernel,
        "sender": {"queries": sender_q.summary(), "responses": sender_r.summary(shapes=False)},
        "toSender": {"responses": device_r.summary(shapes=False), "queries": other_q.summary(shapes=False)},
    }
    text = json.dumps(summary, indent=2, sort_keys=True) + "\n"
    if args.out:
        with open(args.out + ".tmp", "w") as f:
            f.write(text)
        os.replace(args.out + ".tmp", args.out)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
