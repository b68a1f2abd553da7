#!/usr/bin/env python3
"""castlab avahi publisher: serves simulated Cast devices from a real avahi-daemon.

The lab's second, independent mDNS stack (the first is python-zeroconf, responder.py). One
process per "avahi" device namespace; it runs that namespace's avahi-daemon as its child and
publishes each device as a static service file (/etc/avahi/services, a private tmpfs) with its
host's addresses in /etc/avahi/hosts (a private bind mount of --hosts). Scripts/castlab starts
it inside its own mount namespace, so the host's avahi never sees these files.

Control channel: the same one-JSON-object-per-line protocol as responder.py:
  ping, list, add DEVICE, remove NAME (goodbye), stop NAME (silent), update DEVICE, announce.
avahi-daemon reloads its files on SIGHUP; a changed file is withdrawn (goodbye) and published
again, which is how avahi itself handles an edited service file. `stop` must not send a
goodbye, so it kills the daemon (SIGKILL) and starts it again without that device.
Standard library only.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from xml.sax.saxutils import escape

SERVICES_DIR = "/etc/avahi/services"
SERVICE_TYPE = "_googlecast._tcp"


def printable(b: bytes) -> bool:
    return all(0x20 <= c < 0x7F for c in b)


def txt_entries(device: dict) -> list[bytes]:
    if "txtWireHex" in device:
        wire, out, i = bytes.fromhex(device["txtWireHex"]), [], 0
        while i < len(wire):
            n = wire[i]
            if i + 1 + n > len(wire):
                break
            if n:
                out.append(wire[i + 1:i + 1 + n])
            i += 1 + n
        return out
    return [bytes.fromhex(h) for h in device.get("txtHex", [])]


def txt_element(entry: bytes) -> str:
    key, sep, value = entry.partition(b"=")
    if printable(entry):
        return f"    <txt-record>{escape(entry.decode())}</txt-record>"
    if not printable(key):
        raise ValueError(f"TXT key {key!r} cannot be written in an avahi service file")
    return f'    <txt-record value-format="binary-hex">{escape(key.decode())}{sep.decode()}{value.hex()}</txt-record>'


def service_file(device: dict) -> str:
    lines = [
        '<?xml version="1.0" standalone="no"?>',
        '<!DOCTYPE service-group SYSTEM "avahi-service.dtd">',
        "<service-group>",
        f"  <name>{escape(device['instance'])}</name>",
        "  <service>",
        f"    <type>{SERVICE_TYPE}</type>",
        *[f"    <subtype>_{escape(app)}._sub.{SERVICE_TYPE}</subtype>" for app in device.get("subtypes", [])],
        f"    <host-name>{escape(device['host'].rstrip('.'))}</host-name>",
        f"    <port>{int(device['port'])}</port>",
        *[txt_element(e) for e in txt_entries(device)],
        "  </service>",
        "</service-group>",
        "",
    ]
    return "\n".join(lines)


class Publisher:
    def __init__(self, conf: str, hosts: str, log_path: str) -> None:
        self.conf = conf
        self.hosts = hosts
        self.log_path = log_path
        self.devices: dict[str, dict] = {}
        self.daemon: subprocess.Popen | None = None
        self.log_lines: list[str] = []
        self.cond = threading.Condition()

    # ------------------------------------------------------------ the daemon
    def start_daemon(self) -> None:
        with self.cond:
            self.log_lines = []
        self.daemon = subprocess.Popen(
            ["avahi-daemon", "--no-drop-root", "--no-chroot", "--no-rlimits", "--no-proc-title",
             "-f", self.conf],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        threading.Thread(target=self._pump, args=(self.daemon,), daemon=True).start()
        self.wait_log(lambda l: "Server startup complete" in l, "avahi-daemon startup")

    def _pump(self, proc: subprocess.Popen) -> None:
        with open(self.log_path, "a", encoding="utf-8") as log:
            for raw in proc.stdout:
                line = raw.decode("utf-8", "replace")
                log.write(line)
                log.flush()
                with self.cond:
                    self.log_lines.append(line)
                    self.cond.notify_all()

    def wait_log(self, match, what: str, start: int = 0, timeout: float = 15.0) -> int:
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for i in range(start, len(self.log_lines)):
                    if match(self.log_lines[i]):
                        return i + 1
                left = end - time.monotonic()
                if left <= 0 or (self.daemon and self.daemon.poll() is not None):
                    raise RuntimeError(f"{what}: not seen in avahi-daemon's log within {timeout:.0f} s")
                self.cond.wait(left)

    def log_mark(self) -> int:
        with self.cond:
            return len(self.log_lines)

    def kill_daemon(self) -> None:
        if self.daemon and self.daemon.poll() is None:
            self.daemon.kill()
            self.daemon.wait()

    def stop_daemon(self) -> None:
        if self.daemon and self.daemon.poll() is None:
            self.daemon.terminate()
            try:
                self.daemon.wait(5)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()

    # ------------------------------------------------------------ files
    @staticmethod
    def path(name: str) -> str:
        return os.path.join(SERVICES_DIR, hashlib.sha1(name.encode()).hexdigest() + ".service")

    def write_files(self) -> None:
        wanted = {self.path(n): service_file(d) for n, d in self.devices.items()}
        for entry in os.listdir(SERVICES_DIR):
            full = os.path.join(SERVICES_DIR, entry)
            if entry.endswith(".service") and full not in wanted:
                os.unlink(full)
        for full, text in wanted.items():
            try:
                with open(full, encoding="utf-8") as f:
                    if f.read() == text:
                        continue
            except FileNotFoundError:
                pass
            try:
                before = int(os.stat(full).st_mtime)
            except FileNotFoundError:
                before = None
            with open(full + ".tmp", "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(full + ".tmp", full)
            # avahi-daemon reloads a service file only when its st_mtime, in whole seconds,
            # differs from the one it loaded (static-services.c): a change within the second
            # of the last one was never published (castlab move after add timed out waiting
            # for it). The new file gets the next second at least.
            if before is not None and int(os.stat(full).st_mtime) <= before:
                os.utime(full, (before + 1, before + 1))
        lines = []
        for d in self.devices.values():
            for addr in (d.get("ipv4"), d.get("ipv6")):
                if addr:
                    lines.append(f"{addr} {d['host'].rstrip('.')}\n")
        # In place: /etc/avahi/hosts is a bind mount of this very inode.
        with open(self.hosts, "r+", encoding="utf-8") as f:
            f.truncate(0)
            f.write("".join(dict.fromkeys(lines)))

    def reload(self, established: list[str]) -> None:
        mark = self.log_mark()
        self.daemon.send_signal(signal.SIGHUP)
        for name in established:
            self.wait_log(lambda l, n=name: f'Service "{n}"' in l and "successfully established" in l,
                          f"publishing {name}", start=mark)

    # ------------------------------------------------------------ commands
    def add(self, device: dict) -> None:
        if device["instance"] in self.devices:
            raise ValueError(f"{device['instance']} is already published here")
        service_file(device)  # refuse what avahi could not publish before touching anything
        self.devices[device["instance"]] = device
        self.write_files()
        self.reload([device["instance"]])

    def remove(self, name: str) -> None:
        self.devices.pop(self._known(name))
        self.write_files()
        self.reload([])
        time.sleep(0.3)  # the goodbyes leave within a few ms of the reload

    def stop(self, name: str) -> None:
        self.devices.pop(self._known(name))
        self.kill_daemon()  # no goodbye
        self.write_files()
        self.start_daemon()
        mark = 0
        for other in self.devices:
            self.wait_log(lambda l, n=other: f'Service "{n}"' in l and "successfully established" in l,
                          f"publishing {other}", start=mark)

    def update(self, device: dict) -> None:
        self._known(device["instance"])
        service_file(device)
        self.devices[device["instance"]] = device
        self.write_files()
        self.reload([device["instance"]])

    def _known(self, name: str) -> str:
        if name not in self.devices:
            raise KeyError(f"no device {name!r} published here")
        return name

    def handle(self, req: dict) -> dict:
        cmd = req.get("cmd")
        if cmd == "ping":
            return {"ok": True, "pid": os.getpid(), "daemon": self.daemon.pid if self.daemon else None}
        if cmd == "list":
            return {"ok": True, "devices": list(self.devices.values())}
        if cmd == "add":
            self.add(req["device"])
        elif cmd == "remove":
            self.remove(req["instance"])
        elif cmd == "stop":
            self.stop(req["instance"])
        elif cmd == "update":
            self.update(req["device"])
        elif cmd == "announce":
            pass  # avahi announces subtype records with the service, always
        else:
            return {"ok": False, "error": f"unknown command {cmd!r}"}
        return {"ok": True}


def serve(publisher: Publisher, path: str, stop: threading.Event) -> None:
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.unlink(tmp)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(tmp)
    srv.listen(8)
    srv.settimeout(0.5)
    os.rename(tmp, path)  # appears atomically: the readiness signal
    lock = threading.Lock()
    while not stop.is_set():
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            continue
        with conn:
            conn.settimeout(60)
            buf = b""
            try:
                while True:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    buf += chunk
                    while b"\n" in buf:
                        line, buf = buf.split(b"\n", 1)
                        try:
                            with lock:
                                resp = publisher.handle(json.loads(line))
                        except Exception as exc:  # report every failure to the client
                            resp = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
                        conn.sendall((json.dumps(resp) + "\n").encode())
            except OSError:
                pass
    srv.close()
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", required=True, help="JSON file: list of devices for this namespace")
    ap.add_argument("--control", required=True, help="unix socket path for the control channel")
    ap.add_argument("--conf", required=True, help="avahi-daemon.conf for this namespace")
    ap.add_argument("--hosts", required=True, help="the file bind-mounted on /etc/avahi/hosts")
    ap.add_argument("--daemon-log", required=True)
    args = ap.parse_args()
    publisher = Publisher(args.conf, args.hosts, args.daemon_log)
    with open(args.devices, encoding="utf-8") as f:
        for device in json.load(f):
            publisher.devices[device["instance"]] = device
    publisher.write_files()
    publisher.start_daemon()
    for name in publisher.devices:
        publisher.wait_log(lambda l, n=name: f'Service "{n}"' in l and "successfully established" in l,
                           f"publishing {name}")
    print(f"published {len(publisher.devices)} devices through avahi-daemon {publisher.daemon.pid}", flush=True)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        serve(publisher, args.control, stop)
    finally:
        publisher.stop_daemon()
    return 0


if __name__ == "__main__":
    sys.exit(main())
