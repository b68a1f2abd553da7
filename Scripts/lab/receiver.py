#!/usr/bin/env python3
"""castlab receiver: serves the Cast channel of the simulated devices of one namespace.

An implementation independent of cast-scan's: Python's ssl for TLS, Google's protobuf with
pychromecast's generated CastMessage (pychromecast.generated.cast_channel_pb2) for the frames.
Each device listens on its own addresses (IPv4 and IPv6) and SRV port, with the certificate
given (--cert: a self-signed X.509 v1 certificate and its key, as devices have), and answers as
a receiver does: CONNECT taken, PING answered with PONG, GET_STATUS with a RECEIVER_STATUS
carrying the request's requestId, CLOSE ends the connection. The status and the failure mode
come from --devices (written by labctl.py at `castlab up`):

    [{"instance", "ipv4", "ipv6", "port", "receiver": {"status": {...}, "failure": null | MODE}}]

MODE: refuse (nothing listens: a reset), drop (an nftables rule in the namespace drops its
SYNs: no answer), stallTLS (TCP accepted, no TLS), noStatus (TLS and heartbeats, GET_STATUS
never answered), hugeFrame (a 2 GiB length), garbage (a frame that is not a CastMessage),
notJSON (a RECEIVER_STATUS whose payload is not JSON).

With --auth-dir (the lab's PKI, made by deviceauth.py), every device answers the
device-authentication challenge by its "auth" mode (deviceauth.MODES; genuine when none is
given), with a device certificate of its own made at start, and presents the PKI's TLS
certificate (a 10-day one in mode tlsLongLived) instead of --cert.

Bounds: a frame over 64 KiB or of length 0 ends the connection, as it does for cast-scan; at
most 256 connections at once per device. Once every device listens, --ready is created.
--drop-every SECONDS (0: never) closes every open connection that often, as a device that
restarts does: a sender that keeps its channels must reconnect (the serve --status soak).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import ssl
import struct
import subprocess
import sys

from cryptography.hazmat.primitives import serialization
from pychromecast.generated import cast_channel_pb2

import deviceauth

MAX_FRAME = 64 * 1024
MAX_CONNECTIONS = 256
NS_CONNECTION = "urn:x-cast:com.google.cast.tp.connection"
NS_HEARTBEAT = "urn:x-cast:com.google.cast.tp.heartbeat"
NS_RECEIVER = "urn:x-cast:com.google.cast.receiver"
NS_DEVICEAUTH = "urn:x-cast:com.google.cast.tp.deviceauth"
log = logging.getLogger("castlab.receiver")


def frame(source: str, destination: str, namespace: str, payload: str | bytes) -> bytes:
    message = cast_channel_pb2.CastMessage()
    message.protocol_version = cast_channel_pb2.CastMessage.CASTV2_1_0
    message.source_id = source
    message.destination_id = destination
    message.namespace = namespace
    if isinstance(payload, bytes):
        message.payload_type = cast_channel_pb2.CastMessage.BINARY
        message.payload_binary = payload
    else:
        message.payload_type = cast_channel_pb2.CastMessage.STRING
        message.payload_utf8 = payload
    data = message.SerializeToString()
    return struct.pack(">I", len(data)) + data


class Device:
    def __init__(self, entry: dict) -> None:
        self.instance = entry["instance"]
        self.addresses = [a for a in (entry.get("ipv4"), entry.get("ipv6")) if a]
        self.port = int(entry["port"])
        receiver = entry.get("receiver") or {}
        self.status = receiver.get("status") or {}
        self.failure = receiver.get("failure")
        self.auth = receiver.get("auth") or "genuine"
        self.identity = None  # (signer, certificate, intermediates, crl), with --auth-dir
        self.tls_der = b""
        self.writers: set = set()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self.writers) >= MAX_CONNECTIONS:
            writer.close()
            return
        self.writers.add(writer)
        try:
            if self.failure == "stallTLS":
                while await reader.read(4096):
                    pass
                return
            await self.converse(reader, writer)
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError, OSError):
            pass
        finally:
            self.writers.discard(writer)
            writer.close()

    async def converse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            (length,) = struct.unpack(">I", await reader.readexactly(4))
            if length == 0 or length > MAX_FRAME:
                return
            message = cast_channel_pb2.CastMessage()
            try:
                message.ParseFromString(await reader.readexactly(length))
                if message.namespace == NS_DEVICEAUTH:
                    await self.authenticate(message, writer)
                    continue
                request = json.loads(message.payload_utf8)
            except Exception:  # noqa: BLE001 - a bad frame from the sender is skipped
                continue
            if not isinstance(request, dict):
                continue
            kind, peer = request.get("type"), message.source_id
            if message.namespace == NS_HEARTBEAT and kind == "PING":
                writer.write(frame(message.destination_id, peer, NS_HEARTBEAT, '{"type":"PONG"}'))
            elif message.namespace == NS_CONNECTION and kind == "CLOSE":
                return
            elif message.namespace == NS_RECEIVER and kind == "GET_STATUS":
                request_id = request.get("requestId", 0)
                if self.failure == "noStatus":
                    continue
                if self.failure == "hugeFrame":
                    writer.write(struct.pack(">I", 0x80000000) + b"\0" * 64)
                elif self.failure == "garbage":
                    writer.write(struct.pack(">I", 16) + b"\xff" * 16)
                elif self.failure == "notJSON":
                    writer.write(frame("receiver-0", peer, NS_RECEIVER, "RECEIVER_STATUS, not JSON {"))
                else:
                    answer = {"type": "RECEIVER_STATUS", "requestId": request_id, "status": self.status}
                    writer.write(frame("receiver-0", peer, NS_RECEIVER, json.dumps(answer)))
            await writer.drain()


    async def authenticate(self, message, writer: asyncio.StreamWriter) -> None:
        if self.identity is None:
            return
        reply = deviceauth.answer(cast_channel_pb2, AUTHORITY, self.identity, self.auth, message.payload_binary,
                                  self.tls_der)
        if reply is not None:
            writer.write(frame("receiver-0", message.source_id, NS_DEVICEAUTH, reply))
            await writer.drain()


AUTHORITY = None


def drop_rules(devices: list[Device]) -> str:
    """An nftables table that drops the SYNs to every "drop" device (no answer, as a firewall)."""
    rules = []
    for device in devices:
        if device.failure != "drop":
            continue
        for address in device.addresses:
            family = "ip6" if ":" in address else "ip"
            rules.append(f"    {family} daddr {address} tcp dport {device.port} drop")
    if not rules:
        return ""
    return ("table inet castlab_receiver {\n  chain input {\n    type filter hook input priority 0;\n"
            + "\n".join(rules) + "\n  }\n}\n")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--devices", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--ready", required=True)
    parser.add_argument("--drop-every", type=float, default=0.0)
    parser.add_argument("--auth-dir")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    with open(args.devices, encoding="utf-8") as f:
        devices = [Device(entry) for entry in json.load(f)]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert)
    contexts = {}
    if args.auth_dir:
        global AUTHORITY
        AUTHORITY = deviceauth.Authority(args.auth_dir)
        for file in ("tls.pem", "tls-long.pem"):
            contexts[file] = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            contexts[file].load_cert_chain(os.path.join(args.auth_dir, file))
        for device in devices:
            file = "tls-long.pem" if device.auth == "tlsLongLived" else "tls.pem"
            device.tls_der = AUTHORITY.tls[file].public_bytes(serialization.Encoding.DER)
            device.identity = AUTHORITY.device(device.instance, device.auth)
            device.context = contexts[file]
    rules = drop_rules(devices)
    if rules:
        subprocess.run(["nft", "-f", "-"], input=rules.encode(), check=True)
    servers, taken = [], set()
    for device in devices:
        if device.failure in ("refuse", "drop"):
            continue
        for address in device.addresses:
            if (address, device.port) in taken:
                log.warning("%s: %s port %d already serves another device", device.instance, address, device.port)
                continue
            taken.add((address, device.port))
            servers.append(await asyncio.start_server(
                device.serve, address, device.port,
                ssl=None if device.failure == "stallTLS" else getattr(device, "context", context),
                ssl_handshake_timeout=30 if device.failure != "stallTLS" else None, reuse_address=True))
    log.info("serving %d devices on %d sockets", len(devices), len(servers))
    open(args.ready, "w").close()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    if args.drop_every > 0:
        async def drop():
            while True:
                await asyncio.sleep(args.drop_every)
                dropped = 0
                for device in devices:
                    for writer in list(device.writers):
                        writer.close()
                        dropped += 1
                log.info("dropped %d connections", dropped)
        loop.create_task(drop())
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    for server in servers:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
