#!/usr/bin/env python3
"""Captures real mDNS packets in the lab, for the DNS codec's fixtures (Fixtures/packets/).

Run inside the lab's sender namespace with the lab's venv (python-zeroconf is the oracle):

  Scripts/castlab up Fixtures/lab/real-world.json
  Scripts/castlab exec .build/lab-venv/bin/python Scripts/lab/capture-packets.py --out Fixtures/packets

It listens on 5353 beside the sender's avahi-daemon, publishes one service through that daemon
with avahi-publish (so avahi-daemon answers as a second, independent stack), asks questions
(PTR for the base type and a subtype, SRV, TXT, A and AAAA, by multicast and as a legacy
unicast query from an ephemeral port), and writes each distinct answer it hears, and avahi's
probes and announcements, as {"description", "source", "hex", "expected"}: "expected" is the
message as python-zeroconf's DNSIncoming reads it, which the Swift codec must reproduce.
"""
from __future__ import annotations

import argparse
import json
import os
import select
import socket
import struct
import subprocess
import time

from zeroconf._protocol.incoming import DNSIncoming
from zeroconf._protocol.outgoing import DNSOutgoing
from zeroconf._dns import DNSAddress, DNSNsec, DNSPointer, DNSQuestion, DNSService, DNSText
from zeroconf.const import _CLASS_IN, _FLAGS_QR_QUERY, _TYPE_A, _TYPE_AAAA, _TYPE_PTR, _TYPE_SRV, _TYPE_TXT

GROUP = "224.0.0.251"
SENDER = "10.213.0.1"
CAST = "_googlecast._tcp.local."
AVAHI_INSTANCE = "Lab Avahi Device"


def expected(msg: DNSIncoming) -> dict:
    def rec(r) -> dict:
        out = {"name": r.name, "type": r.type, "class": r.class_, "cacheFlush": r.unique, "ttl": r.ttl}
        if isinstance(r, DNSPointer):
            out["data"] = {"ptr": r.alias}
        elif isinstance(r, DNSService):
            out["data"] = {"srv": {"priority": r.priority, "weight": r.weight, "port": r.port, "target": r.server}}
        elif isinstance(r, DNSText):
            out["data"] = {"txtWireHex": r.text.hex()}
        elif isinstance(r, DNSAddress):
            out["data"] = {"a" if r.type == _TYPE_A else "aaaa": socket.inet_ntop(
                socket.AF_INET if r.type == _TYPE_A else socket.AF_INET6, r.address)}
        elif isinstance(r, DNSNsec):
            out["data"] = {"nsec": {"next": r.next_name, "types": sorted(r.rdtypes)}}
        else:
            out["data"] = {"other": True}
        return out

    questions = [{"name": q.name, "type": q.type, "class": q.class_, "unicastResponse": q.unicast} for q in msg.questions]
    answers = [rec(r) for r in msg.answers()]
    return {"id": msg.id, "flags": msg.flags, "questions": questions, "records": answers,
            "counts": [msg.num_questions, msg.num_answers, msg.num_authorities, msg.num_additionals]}


def query(names_types: list[tuple[str, int]], unicast: bool = False) -> bytes:
    out = DNSOutgoing(_FLAGS_QR_QUERY, multicast=True)
    for name, qtype in names_types:
        q = DNSQuestion(name, qtype, _CLASS_IN)
        q.unicast = unicast
        out.add_question(q)
    return out.packets()[0]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, default=6.0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    listen = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listen.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listen.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listen.bind(("0.0.0.0", 5353))
    listen.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                      struct.pack("4s4s", socket.inet_aton(GROUP), socket.inet_aton(SENDER)))
    listen.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(SENDER))
    legacy = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    legacy.bind((SENDER, 0))
    legacy.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(SENDER))

    publish = subprocess.Popen(
        ["avahi-publish", "-s", AVAHI_INSTANCE, "_googlecast._tcp", "8009",
         "id=0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f", "fn=Lab Avahi Device", "md=Chromecast", "ca=4101", "st=0", "ve=05",
         "--subtype", "_CC1AD845._sub._googlecast._tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    captured: dict[bytes, tuple[str, str]] = {}
    sent: set[bytes] = set()
    cc = "Chromecast-406c2bcdd5995755059b5bb045326056." + CAST
    host = "406c2bcd-d599-5755-059b-5bb045326056.local."
    plan = [
        (0.8, "query", [(CAST, _TYPE_PTR)], False, "multicast PTR question for _googlecast._tcp"),
        (1.8, "query", [("_CC1AD845._sub." + CAST, _TYPE_PTR)], False, "multicast PTR question for the CC1AD845 subtype"),
        (2.8, "legacy", [(cc, _TYPE_SRV), (cc, _TYPE_TXT)], False, "legacy unicast SRV and TXT questions"),
        (3.4, "legacy", [(host, _TYPE_A), (host, _TYPE_AAAA)], False, "legacy unicast A and AAAA questions"),
        (4.0, "query", [(f"{AVAHI_INSTANCE}.{CAST}", _TYPE_SRV), (f"{AVAHI_INSTANCE}.{CAST}", _TYPE_TXT)], True,
         "QU SRV and TXT questions for the avahi-published service"),
        (4.6, "legacy", [(CAST, _TYPE_PTR)], False, "legacy unicast PTR question for _googlecast._tcp"),
    ]
    t0 = time.monotonic()
    asked = ""
    while time.monotonic() - t0 < args.seconds:
        now = time.monotonic() - t0
        while plan and plan[0][0] <= now:
            _, how, questions, unicast, what = plan.pop(0)
            asked = what
            packet = query(questions, unicast)
            sent.add(packet)
            (legacy if how == "legacy" else listen).sendto(packet, (GROUP, 5353))
        ready, _, _ = select.select([listen, legacy], [], [], 0.05)
        for sock in ready:
            data, (source, port) = sock.recvfrom(9000)
            # Our own questions come back by loopback; avahi-daemon speaks from 5353.
            if data in captured or data in sent or source == SENDER and port != 5353:
                continue
            stack = "avahi-daemon 0.8" if source == SENDER else "python-zeroconf 0.154.0"
            via = "legacy unicast answer" if sock is legacy else "multicast"
            captured[data] = (stack, f"{via} after: {asked or 'no question yet (unsolicited)'}")
    publish.terminate()
    publish.wait()

    written = 0
    for index, (data, (stack, what)) in enumerate(captured.items()):
        msg = DNSIncoming(data)
        if not msg.valid:
            continue
        kind = "response" if msg.flags & 0x8000 else "query"
        doc = {"description": f"{stack}, {kind}, {what}", "source": stack, "hex": data.hex(), "expected": expected(msg)}
        slug = ("avahi" if stack.startswith("avahi") else "zeroconf") + f"-{kind}-{index:02d}"
        with open(os.path.join(args.out, slug + ".json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
        written += 1
    print(f"captured {len(captured)} distinct packets, wrote {written}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
