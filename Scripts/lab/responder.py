#!/usr/bin/env python3
"""castlab responder: publishes simulated Google Cast devices over mDNS with python-zeroconf.

One process per device namespace. It serves every device whose host lives in that namespace:
PTR (_googlecast._tcp.local.), SRV, TXT (raw bytes, fixture order), A and AAAA of the host,
and the per-app subtype PTRs (_<APPID>._sub._googlecast._tcp.local.), which python-zeroconf
cannot publish by itself: a QueryHandler subclass answers those questions. A device with
"announceSubtypes": false only answers its subtype questions and never announces those
records, as some real devices and stacks do: a listener learns them only by asking.

Control channel: a unix socket (--control), one JSON object per line in, one per line out.
  {"cmd": "ping"}
  {"cmd": "list"}
  {"cmd": "add", "device": DEVICE}          DEVICE as in plan.json (txtHex, ipv4, ipv6, ...)
  {"cmd": "remove", "instance": NAME}       goodbye (TTL 0) for PTR/SRV/TXT and subtype PTRs
  {"cmd": "stop", "instance": NAME}         vanish silently: no goodbye, stop answering
  {"cmd": "update", "device": DEVICE}       new TXT and/or SRV host/port; re-announced
  {"cmd": "announce"}                       announce every device's subtype records again
The socket appears only once the initial devices are registered (the readiness signal).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import socket
import sys

import zeroconf._core as zc_core
from zeroconf import IPVersion
from zeroconf._dns import DNSPointer, DNSRRSet
from zeroconf._handlers.answers import QuestionAnswers
from zeroconf._handlers.query_handler import QueryHandler
from zeroconf._protocol.outgoing import DNSOutgoing
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf
from zeroconf.const import _CLASS_IN, _FLAGS_AA, _FLAGS_QR_RESPONSE, _TYPE_ANY, _TYPE_PTR

SERVICE_TYPE = "_googlecast._tcp.local."
log = logging.getLogger("castlab.responder")

# lower-case subtype PTR name -> {instance key: (published subtype name, ServiceInfo)}
SUBTYPES: dict[str, dict[str, tuple[str, AsyncServiceInfo]]] = {}


def subtype_name(app_id: str) -> str:
    return f"_{app_id}._sub.{SERVICE_TYPE}"


class SubtypeQueryHandler(QueryHandler):
    """python-zeroconf's QueryHandler plus answers for _<APPID>._sub PTR questions."""

    def async_response(self, msgs, ucast_source):  # noqa: D401 - overrides a cpdef method
        base = super().async_response(msgs, ucast_source)
        extra = {}
        for msg in msgs:
            if msg.is_probe():
                continue
            known = DNSRRSet(msg.answers())
            for question in msg.questions:
                if question.type not in (_TYPE_PTR, _TYPE_ANY):
                    continue
                bucket = SUBTYPES.get(question.name.lower())
                if not bucket:
                    continue
                for name, info in bucket.values():
                    ptr = DNSPointer(name, _TYPE_PTR, _CLASS_IN, info.other_ttl, info.name)
                    if known.suppresses(ptr):
                        continue
                    extra[ptr] = {info.dns_service(), info.dns_text(), *info.dns_addresses()}
        if not extra:
            return base
        if base is None:
            base = QuestionAnswers({}, {}, {}, {})
        if ucast_source:
            base.ucast.update(extra)  # legacy unicast querier (port != 5353)
        else:
            # A PTR is a shared record: answered after 20-120 ms (RFC 6762 section 6), with
            # python-zeroconf's other delayed answers, as a real device does.
            base.mcast_aggregate.update(extra)
        return base


# Zeroconf.__init__ looks QueryHandler up in zeroconf._core: swap ours in before it runs.
zc_core.QueryHandler = SubtypeQueryHandler


def txt_bytes(device: dict) -> bytes:
    if "txtWireHex" in device:  # raw rdata from the fixture, possibly malformed on purpose
        return bytes.fromhex(device["txtWireHex"]) or b"\x00"
    entries = [bytes.fromhex(h) for h in device.get("txtHex", [])]
    out = b"".join(bytes([len(e)]) + e for e in entries)
    return out or b"\x00"


def fqdn(host: str) -> str:
    return host if host.endswith(".") else host + "."


def make_info(device: dict) -> AsyncServiceInfo:
    ttl = int(device.get("ttl", 120))
    return AsyncServiceInfo(
        SERVICE_TYPE,
        f"{device['instance']}.{SERVICE_TYPE}",
        port=int(device["port"]),
        properties=txt_bytes(device),
        server=fqdn(device["host"]),
        parsed_addresses=[a for a in (device.get("ipv4"), device.get("ipv6")) if a],
        host_ttl=ttl,
        other_ttl=ttl,
    )


class Responder:
    def __init__(self, aiozc: AsyncZeroconf) -> None:
        self.aiozc = aiozc
        self.zc = aiozc.zeroconf
        self.devices: dict[str, dict] = {}  # instance -> device dict
        self.infos: dict[str, AsyncServiceInfo] = {}
        self.tasks: set[asyncio.Future] = set()
        self.announcing: dict[str, set[asyncio.Future]] = {}  # instance -> pending announcements

    def _keep(self, fut, name: str | None = None) -> None:
        self.tasks.add(fut)
        fut.add_done_callback(self.tasks.discard)
        if name is not None:
            pending = self.announcing.setdefault(name, set())
            pending.add(fut)
            fut.add_done_callback(pending.discard)

    def _cancel_announcements(self, name: str) -> None:
        """Stops a device's pending (re)announcements, so that an old record announced after
        a change cannot put the old value back into the listeners' caches."""
        for fut in self.announcing.pop(name, set()):
            fut.cancel()

    def _drop_queued_answers(self, info: AsyncServiceInfo) -> int:
        """Drops the answers about a device that python-zeroconf has queued but not sent.

        python-zeroconf builds an answer when the question arrives and sends it up to 1.6 s
        later (aggregation, and the one-second limit per record of RFC 6762 section 6), so an
        answer queued before a change goes out after it, with the old TXT or SRV, and every
        cache on the link takes it (cache-flush): the network forgets the change. A device
        builds its answers when it sends them; here the change's own announcements (or the
        goodbye, or the silence of a device that stopped) stand in for what was queued.
        Returns how many queued answers were dropped."""
        name = info.name.lower()

        def about(record) -> bool:
            return record.name.lower() == name or (
                isinstance(record, DNSPointer) and record.alias.lower() == name)

        dropped = 0
        for queue in (self.zc.out_queue, self.zc.out_delay_queue):
            for group in queue.queue:
                for record in [r for r, extra in group.answers.items() if about(r) or any(map(about, extra))]:
                    del group.answers[record]
                    dropped += 1
            # A group left empty is not sent (async_ready sends only answers), but it would
            # still hold the queue's timer: drop it.
            queue.queue = type(queue.queue)(g for g in queue.queue if g.answers)
        if dropped:
            log.debug("dropped %d queued answers about %s", dropped, info.name)
        return dropped

    def _subtype_ptrs(self, device: dict, info: AsyncServiceInfo, ttl: int | None):
        return [
            DNSPointer(subtype_name(app), _TYPE_PTR, _CLASS_IN,
                       info.other_ttl if ttl is None else ttl, info.name)
            for app in device.get("subtypes", [])
        ]

    def _index_subtypes(self, device: dict, info: AsyncServiceInfo) -> None:
        for app in device.get("subtypes", []):
            name = subtype_name(app)
            SUBTYPES.setdefault(name.lower(), {})[info.key] = (name, info)

    def _unindex_subtypes(self, info: AsyncServiceInfo) -> None:
        for key in list(SUBTYPES):
            SUBTYPES[key].pop(info.key, None)
            if not SUBTYPES[key]:
                del SUBTYPES[key]

    async def _announce_subtypes(self, records, ttl_zero: bool = False) -> None:
        if not records:
            return
        for i in range(2 if not ttl_zero else 1):
            if i:
                await asyncio.sleep(1.0)
            out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
            for rec in records:
                out.add_answer_at_time(rec, 0)
            self.zc.async_send(out)

    async def add(self, device: dict) -> None:
        name = device["instance"]
        if name in self.devices:
            raise ValueError(f"{name} is already published here")
        info = make_info(device)
        # cooperating_responders: skip the probe phase (names are unique by construction);
        # python-zeroconf still sends its three announcements.
        self._keep(await self.aiozc.async_register_service(info, cooperating_responders=True), name)
        self._index_subtypes(device, info)
        self.devices[name] = device
        self.infos[name] = info
        if device.get("announceSubtypes", True):
            self._keep(asyncio.ensure_future(
                self._announce_subtypes(self._subtype_ptrs(device, info, None))), name)

    async def remove(self, name: str) -> None:
        self._cancel_announcements(name)
        info = self._take(name)
        device = self.devices.pop(name)
        await self._announce_subtypes(self._subtype_ptrs(device, info, 0), ttl_zero=True)
        self._keep(await self.aiozc.async_unregister_service(info))

    async def stop(self, name: str) -> None:
        self._cancel_announcements(name)
        info = self._take(name)
        self.devices.pop(name)
        self.zc.registry.async_remove(info)  # no goodbye: the device just stops answering

    def _take(self, name: str) -> AsyncServiceInfo:
        if name not in self.infos:
            raise KeyError(f"no device {name!r} published here")
        info = self.infos.pop(name)
        self._unindex_subtypes(info)
        self._drop_queued_answers(info)
        return info

    async def update(self, device: dict) -> None:
        name = device["instance"]
        if name not in self.infos:
            raise KeyError(f"no device {name!r} published here")
        old = self.devices[name]
        self._cancel_announcements(name)
        self._drop_queued_answers(self.infos[name])
        info = make_info(device)
        self._unindex_subtypes(self.infos[name])
        gone = set(old.get("subtypes", [])) - set(device.get("subtypes", []))
        if gone:
            await self._announce_subtypes(
                self._subtype_ptrs({"subtypes": sorted(gone)}, info, 0), ttl_zero=True)
        self._keep(await self.aiozc.async_update_service(info), name)
        self._index_subtypes(device, info)
        self.devices[name] = device
        self.infos[name] = info
        if device.get("announceSubtypes", True):
            self._keep(asyncio.ensure_future(
                self._announce_subtypes(self._subtype_ptrs(device, info, None))), name)

    async def handle(self, req: dict) -> dict:
        cmd = req.get("cmd")
        if cmd == "ping":
            return {"ok": True, "pid": os.getpid()}
        if cmd == "list":
            return {"ok": True, "devices": list(self.devices.values())}
        if cmd == "add":
            await self.add(req["device"])
        elif cmd == "remove":
            await self.remove(req["instance"])
        elif cmd == "stop":
            await self.stop(req["instance"])
        elif cmd == "update":
            await self.update(req["device"])
        elif cmd == "announce":
            for name, device in self.devices.items():
                if device.get("announceSubtypes", True):
                    records = self._subtype_ptrs(device, self.infos[name], None)
                    self._keep(asyncio.ensure_future(self._announce_subtypes(records)), name)
        else:
            return {"ok": False, "error": f"unknown command {cmd!r}"}
        return {"ok": True}

    async def serve_client(self, reader, writer) -> None:
        try:
            while line := await reader.readline():
                try:
                    resp = await self.handle(json.loads(line))
                except Exception as exc:  # report every failure to the client
                    resp = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
                writer.write((json.dumps(resp) + "\n").encode())
                await writer.drain()
        finally:
            writer.close()


async def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", required=True, help="JSON file: list of devices for this namespace")
    ap.add_argument("--control", required=True, help="unix socket path for the control channel")
    ap.add_argument("--ipv4", help="this namespace's primary IPv4 (multicast interface)")
    ap.add_argument("--ipv6-only", action="store_true",
                    help="speak IPv6 only (the namespace has no IPv4 address)")
    ap.add_argument("--iface", default="eth0")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")

    ifindex = socket.if_nametoindex(args.iface)
    if args.ipv6_only:
        aiozc = AsyncZeroconf(interfaces=[ifindex], ip_version=IPVersion.V6Only)
    elif args.ipv4:
        aiozc = AsyncZeroconf(interfaces=[args.ipv4, ifindex], ip_version=IPVersion.All)
    else:
        ap.error("--ipv4 or --ipv6-only is required")
    responder = Responder(aiozc)
    with open(args.devices) as f:
        devices = json.load(f)
    for device in devices:
        await responder.add(device)
    log.info("published %d devices", len(devices))

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    tmp = args.control + ".tmp"
    if os.path.exists(tmp):
        os.unlink(tmp)
    server = await asyncio.start_unix_server(responder.serve_client, path=tmp)
    os.rename(tmp, args.control)  # appears atomically: the readiness signal
    await stop.wait()
    server.close()
    # SIGTERM (castlab down): leave quietly, like a device losing power; the lab goes away.
    try:
        os.unlink(args.control)
    except FileNotFoundError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
