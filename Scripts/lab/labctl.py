#!/usr/bin/env python3
"""castlab's helper: plans the lab from a fixture, talks to the responders, keeps the state.

Standard library only (runs with the system python3). Called by Scripts/castlab; not meant to
be run by hand. State: $STATE/lab.json (the device list `castlab status` prints), guarded by
$STATE/lock. The lab's namespaces are named PREFIX + stem (--prefix, castlab- by default: the
lab's name and a dash, see Scripts/lab/lab-name.sh); the plan writes them into lab.json, where
every later command reads them.
"""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import socket
import subprocess
import sys

SENDER_IPV4 = "10.213.0.1"
SENDER_IPV6 = "fd00:ca57::1"
IPV4_PREFIXLEN = 16
IPV6_PREFIXLEN = 64
MAX_DEVICE_NS = int(os.environ.get("CASTLAB_MAX_NS", "10"))
DEFAULT_APPS = ["CC1AD845"]
# The mDNS stacks a device can be served by: python-zeroconf (responder.py, the default) or a
# real avahi-daemon (avahi-publisher.py). Each kind of device lives in its own namespaces.
STACKS = ("zeroconf", "avahi")
# Namespace kind -> (name stem, how many namespaces at most). zeroconf6: IPv6-only devices.
KINDS = {"zeroconf": ("dev", MAX_DEVICE_NS), "avahi": ("avahi", 1), "zeroconf6": ("v6only", 1)}
# How a device's Cast channel can fail (Scripts/lab/receiver.py): refuse (nothing listens: a
# reset), drop (its SYNs dropped: no answer), stallTLS (TCP, then no TLS), noStatus (TLS and
# heartbeats, no RECEIVER_STATUS), hugeFrame (a 2 GiB length), garbage (a frame that is not a
# CastMessage), notJSON (a RECEIVER_STATUS payload that is not JSON).
RECEIVER_FAILURES = ("refuse", "drop", "stallTLS", "noStatus", "hugeFrame", "garbage", "notJSON")
# How a device answers the device-authentication challenge (Scripts/lab/deviceauth.py; genuine
# when a fixture names none).
AUTH_MODES = ("genuine", "audioOnly", "untrustedChain", "badSignature", "tlsLongLived", "expiredIntermediate",
              "revoked", "noAnswer", "authError", "hostileMany", "hostileNotDER", "hostileHuge")


class LabError(Exception):
    pass


# ---------------------------------------------------------------- fixtures

def host_address(k: int) -> tuple[str, str]:
    """The lab's k-th host address pair (lab-only ranges 10.213.0.0/16, fd00:ca57::/64)."""
    if k >= 250 * 250:
        raise LabError("too many hosts for the lab's address range")
    return f"10.213.{1 + k // 250}.{1 + k % 250}", f"fd00:ca57::1:{k + 1:x}"


def normalize_entry(raw: dict, base_dir: str) -> dict:
    """A fixture entry ({"fixture": path}, a device fixture, or inline) -> lab device."""
    if "fixture" in raw:
        path = raw["fixture"]
        if not os.path.isabs(path):
            path = os.path.join(base_dir, path)
        try:
            with open(path, encoding="utf-8") as f:
                loaded = json.load(f)
        except OSError as exc:
            raise LabError(f"cannot read fixture {path}: {exc}") from exc
        extra = {k: v for k, v in raw.items() if k != "fixture"}
        return normalize_entry({**loaded, **extra}, os.path.dirname(path))
    svc = raw.get("service", raw)
    for key in ("instance", "host", "port"):
        if key not in svc:
            raise LabError(f"fixture entry lacks '{key}': {json.dumps(raw)[:200]}")
    wire = None
    if "txtWireHex" in svc:  # raw TXT rdata, published byte for byte (may be malformed)
        wire = str(svc["txtWireHex"]).lower()
        txt_hex = parse_wire(bytes.fromhex(wire))
    elif "txtHex" in svc:
        txt_hex = [str(h).lower() for h in svc["txtHex"]]
    else:
        txt_hex = [str(t).encode("utf-8").hex() for t in svc.get("txt", [])]
    for h in txt_hex:
        if len(bytes.fromhex(h)) > 255:
            raise LabError(f"TXT entry longer than 255 bytes in {svc['instance']}")
    device = {
        "instance": str(svc["instance"]),
        "host": str(svc["host"]).rstrip("."),
        "port": int(svc["port"]),
        "txtHex": txt_hex,
        "subtypes": [str(s).upper() for s in svc.get("subtypes", [])],
    }
    if wire is not None:
        device["txtWireHex"] = wire
    announce = raw.get("announceSubtypes", svc.get("announceSubtypes"))
    if announce is not None:
        if not isinstance(announce, bool):
            raise LabError(f"announceSubtypes must be true or false in {svc['instance']}")
        device["announceSubtypes"] = announce
    stack = raw.get("stack", svc.get("stack", "zeroconf"))
    if stack not in STACKS:
        raise LabError(f"stack must be one of {', '.join(STACKS)} in {svc['instance']}")
    ipv6_only = raw.get("ipv6Only", svc.get("ipv6Only", False))
    if not isinstance(ipv6_only, bool):
        raise LabError(f"ipv6Only must be true or false in {svc['instance']}")
    if ipv6_only and stack != "zeroconf":
        raise LabError(f"ipv6Only devices are served by python-zeroconf only ({svc['instance']})")
    device["kind"] = "zeroconf6" if ipv6_only else stack
    if "ttl" in raw or "ttl" in svc:
        device["ttl"] = int(raw.get("ttl", svc.get("ttl")))
    if "description" in raw:
        device["description"] = raw["description"]
    receiver = raw.get("receiver", svc.get("receiver"))
    if receiver is not None:
        if not isinstance(receiver, dict) or set(receiver) - {"status", "failure", "auth"}:
            raise LabError(f"receiver must be an object with status, failure and/or auth in {svc['instance']}")
        if receiver.get("failure") not in (None,) + RECEIVER_FAILURES:
            raise LabError(f"receiver failure must be one of {', '.join(RECEIVER_FAILURES)} in {svc['instance']}")
        if receiver.get("auth") not in (None,) + AUTH_MODES:
            raise LabError(f"receiver auth must be one of {', '.join(AUTH_MODES)} in {svc['instance']}")
        if "status" in receiver and not isinstance(receiver["status"], dict):
            raise LabError(f"receiver status must be an object in {svc['instance']}")
        device["receiver"] = receiver
    return device


def receiver_of(d: dict) -> dict:
    """What the device's Cast channel serves (Scripts/lab/receiver.py): the fixture's
    "receiver" (a RECEIVER_STATUS status object and/or a failure mode), the status filled in
    from the TXT record when the fixture gives none: the Default Media Receiver playing the
    status text when st=1, else the idle screen (Backdrop); a volume from the instance name."""
    given = d.get("receiver") or {}
    status = given.get("status")
    if status is None:
        txt = {}
        for t in txt_strings(d["txtHex"]):
            key, _, value = t.partition("=")
            txt.setdefault(key.lower(), value)
        digest = hashlib.md5(d["instance"].encode()).hexdigest()
        session = f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
        if txt.get("st") == "1" and txt.get("rs"):
            app = {"appId": "CC1AD845", "universalAppId": "CC1AD845", "displayName": "Default Media Receiver",
                   "statusText": txt["rs"], "isIdleScreen": False, "appType": "WEB", "sessionId": session}
        else:
            app = {"appId": "E8C28D3C", "universalAppId": "E8C28D3C", "displayName": "Backdrop",
                   "statusText": "", "isIdleScreen": True, "appType": "WEB", "sessionId": session}
        level = int(digest[:2], 16) % 21 / 20
        status = {"applications": [app],
                  "volume": {"level": level, "muted": level == 0, "controlType": "attenuation", "stepInterval": 0.05},
                  "isActiveInput": True, "isStandBy": False}
    return {"status": status, "failure": given.get("failure"), "auth": given.get("auth") or "genuine"}


def parse_wire(wire: bytes) -> list[str]:
    """TXT rdata -> entries (hex), best effort: a truncated tail is dropped."""
    out, i = [], 0
    while i < len(wire):
        n = wire[i]
        if i + 1 + n > len(wire):
            break
        if n:
            out.append(wire[i + 1:i + 1 + n].hex())
        i += 1 + n
    return out


def load_fixture(path: str) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as exc:
        raise LabError(f"cannot read fixture {path}: {exc}") from exc
    base = os.path.dirname(os.path.abspath(path))
    if isinstance(data, dict) and "devices" in data:
        entries = data["devices"]
    elif isinstance(data, list):
        entries = data
    else:
        entries = [data]
    return [normalize_entry(e, base) for e in entries]


def synthetic(i: int) -> dict:
    """The i-th generated Chromecast-like device: distinct id, name, host."""
    ident = hashlib.md5(f"castlab-synthetic-{i}".encode()).hexdigest()
    uuid = f"{ident[:8]}-{ident[8:12]}-{ident[12:16]}-{ident[16:20]}-{ident[20:]}"
    apps = ["CC1AD845"] + (["233637DE"] if i % 2 == 0 else [])
    # Every second device that runs 233637DE only answers its subtype questions (never announces
    # them), so a daemon that heard the announcements holds half of that browse's answers.
    quiet = i % 4 == 2
    txt = [f"id={ident}", f"cd={ident[:32].upper()}", "rm=", "ve=05", "md=Chromecast",
           "ic=/setup/icon.png", f"fn=Lab Device {i:03d}", "ca=200709", "st=0",
           f"bs=FA8F{ident[:8].upper()}", "nf=1", "rs="]
    return {
        "instance": f"Chromecast-{ident}",
        "host": f"{uuid}.local",
        "port": 8009,
        "txtHex": [t.encode().hex() for t in txt],
        "subtypes": apps,
        "description": "synthetic",
        "kind": "zeroconf",
        **({"announceSubtypes": False} if quiet else {}),
    }


def txt_strings(txt_hex: list[str]) -> list[str]:
    return [bytes.fromhex(h).decode("utf-8", errors="backslashreplace") for h in txt_hex]


# ---------------------------------------------------------------- state

class State:
    def __init__(self, state_dir: str) -> None:
        self.dir = state_dir
        self.path = os.path.join(state_dir, "lab.json")

    @contextlib.contextmanager
    def locked(self):
        with open(os.path.join(self.dir, "lock"), "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def load(self) -> dict:
        try:
            with open(self.path, encoding="utf-8") as f:
                return json.load(f)
        except FileNotFoundError:
            raise LabError("the lab is not up (run: Scripts/castlab up FIXTURE)") from None

    def save(self, lab: dict) -> None:
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(lab, f, indent=1, ensure_ascii=False)
        os.replace(tmp, self.path)


def control_path(state_dir: str, ns: str) -> str:
    return os.path.join(state_dir, f"ctl-{ns}.sock")


def call(state_dir: str, ns: str, req: dict, timeout: float = 15.0) -> dict:
    path = control_path(state_dir, ns)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        try:
            s.connect(path)
        except OSError as exc:
            raise LabError(f"responder of {ns} not reachable ({path}): {exc}") from exc
        s.sendall((json.dumps(req) + "\n").encode())
        buf = b""
        while not buf.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
    resp = json.loads(buf or b'{"ok": false, "error": "no answer"}')
    if not resp.get("ok"):
        raise LabError(f"responder of {ns}: {resp.get('error')}")
    return resp


def responder_device(d: dict) -> dict:
    keys = ("instance", "host", "port", "txtHex", "txtWireHex", "subtypes", "ipv4", "ipv6", "ttl",
            "announceSubtypes")
    return {k: d[k] for k in keys if k in d}


# ---------------------------------------------------------------- commands

def cmd_plan(args) -> None:
    devices: list[dict] = []
    if args.fixture:
        devices += load_fixture(args.fixture)
    devices += [synthetic(i) for i in range(args.devices)]
    if not devices:
        raise LabError("no devices: give a fixture file and/or --devices N")
    seen = set()
    for d in devices:
        if d["instance"].lower() in seen:
            raise LabError(f"duplicate instance {d['instance']}")
        seen.add(d["instance"].lower())

    hosts: dict[str, dict] = {}
    order: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for d in devices:
        key = d["host"].lower()
        if key not in hosts:
            hosts[key] = {"host": d["host"], "kind": d["kind"]}
            order[d["kind"]].append(key)
        elif hosts[key]["kind"] != d["kind"]:
            raise LabError(f"host {d['host']} is served by two stacks ({hosts[key]['kind']}, {d['kind']})")
    namespaces = []
    k = 0
    for kind, keys in order.items():
        if not keys:
            continue
        stem, most = KINDS[kind]
        group = [{"ns": f"{args.prefix}{stem}{j}", "kind": kind} for j in range(max(1, min(len(keys), most)))]
        for i, key in enumerate(keys):
            v4, v6 = host_address(k)
            k += 1
            if kind == "zeroconf6":
                v4 = None
            nsd = group[i % len(group)]
            hosts[key].update(ns=nsd["ns"], ipv4=v4, ipv6=v6)
            nsd.setdefault("ipv4", v4)
        namespaces += group
    for d in devices:
        h = hosts[d["host"].lower()]
        d.update(ns=h["ns"], ipv4=h["ipv4"], ipv6=h["ipv6"])
        # What its Cast channel serves, fixed at the start (receiver.py reads it once).
        d["receiver"] = receiver_of(d)

    lab = {
        "fixture": os.path.abspath(args.fixture) if args.fixture else None,
        "sender": {"ns": args.prefix + "sender", "iface": "lab0", "ipv4": SENDER_IPV4, "ipv6": SENDER_IPV6},
        "hub": args.prefix + "hub",
        "namespaces": namespaces,
        "hosts": hosts,
        "nextHost": k,
        "devices": devices,
    }
    os.makedirs(os.path.join(args.state, "ns"), exist_ok=True)
    for nsd in namespaces:
        ns = nsd["ns"]
        with open(os.path.join(args.state, "ns", f"{ns}.json"), "w", encoding="utf-8") as f:
            json.dump([responder_device(d) for d in devices if d["ns"] == ns], f)
        with open(os.path.join(args.state, "ns", f"{ns}.receivers.json"), "w", encoding="utf-8") as f:
            json.dump([{"instance": d["instance"], "ipv4": d["ipv4"], "ipv6": d["ipv6"], "port": d["port"],
                        "receiver": d["receiver"]} for d in devices if d["ns"] == ns], f)
        with open(os.path.join(args.state, "ns", f"{ns}.ip"), "w") as f:
            for h in hosts.values():
                if h["ns"] == ns:
                    if h["ipv4"]:
                        f.write(f"addr add {h['ipv4']}/{IPV4_PREFIXLEN} dev eth0\n")
                    f.write(f"addr add {h['ipv6']}/{IPV6_PREFIXLEN} dev eth0 nodad\n")
    State(args.state).save(lab)
    for nsd in namespaces:
        print(nsd["ns"], nsd["ipv4"] or "-", nsd["kind"])


def find_device(lab: dict, instance: str) -> dict:
    for d in lab["devices"]:
        if d["instance"] == instance:
            return d
    for d in lab["devices"]:
        if d["instance"].lower() == instance.lower():
            return d
    raise LabError(f"no device named {instance!r} (see: castlab status)")


def ensure_host(state_dir: str, lab: dict, host: str, kind: str) -> dict:
    """The lab host record for `host`, creating it (new addresses) when it is new."""
    key = host.rstrip(".").lower()
    if key in lab["hosts"]:
        rec = lab["hosts"][key]
        if rec.get("kind", "zeroconf") != kind:
            raise LabError(f"host {host} is served by {rec.get('kind', 'zeroconf')}, not {kind}")
        return rec
    counts = {n["ns"]: 0 for n in lab["namespaces"] if n.get("kind", "zeroconf") == kind}
    if not counts:
        raise LabError(f"this lab has no {kind} namespace (start it from a fixture with such a device)")
    for h in lab["hosts"].values():
        if h["ns"] in counts:
            counts[h["ns"]] += 1
    ns = min(counts, key=lambda n: (counts[n], n))
    v4, v6 = host_address(lab["nextHost"])
    lab["nextHost"] += 1
    if kind == "zeroconf6":
        v4 = None
    cmds = [["ip", "-n", ns, "addr", "add", f"{v6}/{IPV6_PREFIXLEN}", "dev", "eth0", "nodad"]]
    if v4:
        cmds.append(["ip", "-n", ns, "addr", "add", f"{v4}/{IPV4_PREFIXLEN}", "dev", "eth0"])
    for cmd in cmds:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise LabError(f"{' '.join(cmd)}: {r.stderr.strip()}")
    rec = {"host": host.rstrip("."), "kind": kind, "ns": ns, "ipv4": v4, "ipv6": v6}
    lab["hosts"][key] = rec
    return rec


def read_entry(arg: str) -> list[dict]:
    if os.path.isfile(arg):
        return load_fixture(arg)
    try:
        data = json.loads(arg)
    except ValueError as exc:
        raise LabError(f"not a file nor JSON: {arg[:80]}") from exc
    entries = data["devices"] if isinstance(data, dict) and "devices" in data else data
    if not isinstance(entries, list):
        entries = [entries]
    return [normalize_entry(e, os.getcwd()) for e in entries]


def cmd_add(args) -> None:
    st = State(args.state)
    with st.locked():
        lab = st.load()
        for d in read_entry(args.entry):
            d.pop("receiver", None)  # no channel: the receivers serve what `up` planned
            if any(x["instance"].lower() == d["instance"].lower() for x in lab["devices"]):
                raise LabError(f"{d['instance']} is already in the lab")
            h = ensure_host(args.state, lab, d["host"], d["kind"])
            d.update(ns=h["ns"], ipv4=h["ipv4"], ipv6=h["ipv6"])
            st.save(lab)  # the host's addresses exist now even if the responder refuses
            call(args.state, d["ns"], {"cmd": "add", "device": responder_device(d)})
            lab["devices"].append(d)
            st.save(lab)
            print(f"added {d['instance']} ({d['host']}:{d['port']}, {d['ns']})")


def cmd_remove(args, silent: bool) -> None:
    st = State(args.state)
    with st.locked():
        lab = st.load()
        d = find_device(lab, args.instance)
        call(args.state, d["ns"], {"cmd": "stop" if silent else "remove", "instance": d["instance"]})
        lab["devices"].remove(d)
        st.save(lab)
        print(f"{'stopped (no goodbye)' if silent else 'removed'} {d['instance']}")


def cmd_set_txt(args) -> None:
    st = State(args.state)
    with st.locked():
        lab = st.load()
        d = find_device(lab, args.instance)
        entries = [bytes.fromhex(h) for h in d["txtHex"]]
        for pair in args.pairs:
            new = pair.encode("utf-8")
            key = new.split(b"=", 1)[0].lower()
            for i, e in enumerate(entries):
                if e.split(b"=", 1)[0].lower() == key:
                    entries[i] = new
                    break
            else:
                entries.append(new)
            if len(new) > 255:
                raise LabError(f"TXT entry longer than 255 bytes: {pair[:40]}...")
        d["txtHex"] = [e.hex() for e in entries]
        d.pop("txtWireHex", None)
        call(args.state, d["ns"], {"cmd": "update", "device": responder_device(d)})
        st.save(lab)
        print(f"set-txt {d['instance']}: {' '.join(args.pairs)}")


def cmd_move(args) -> None:
    st = State(args.state)
    with st.locked():
        lab = st.load()
        d = find_device(lab, args.instance)
        new_host = (args.host or d["host"]).rstrip(".")
        h = ensure_host(args.state, lab, new_host, d.get("kind", "zeroconf"))
        moved = dict(d, host=new_host, port=args.port or d["port"],
                     ns=h["ns"], ipv4=h["ipv4"], ipv6=h["ipv6"])
        moved.pop("receiver", None)  # its channel stays where `up` put it
        if h["ns"] == d["ns"]:
            call(args.state, d["ns"], {"cmd": "update", "device": responder_device(moved)})
        else:
            # Another namespace serves the new host: the old one goes quiet (the new SRV
            # carries the cache-flush bit), the new one publishes.
            call(args.state, d["ns"], {"cmd": "stop", "instance": d["instance"]})
            call(args.state, h["ns"], {"cmd": "add", "device": responder_device(moved)})
        d.clear()
        d.update(moved)
        st.save(lab)
        print(f"moved {d['instance']} to {d['host']}:{d['port']} ({d['ns']})")


def status_devices(lab: dict) -> list[dict]:
    return [{
        "instance": d["instance"], "host": d["host"], "port": d["port"],
        "ipv4": d["ipv4"], "ipv6": d["ipv6"], "txt": txt_strings(d["txtHex"]),
        "txtHex": d["txtHex"], "subtypes": d["subtypes"], "namespace": d["ns"],
        "stack": "avahi" if d.get("kind") == "avahi" else "zeroconf",
        # What its Cast channel serves; null for a device added or moved after `up` (the
        # receivers serve what `up` planned).
        "receiver": d.get("receiver"),
        **({"txtWireHex": d["txtWireHex"]} if "txtWireHex" in d else {}),
    } for d in lab["devices"]]


def cmd_status(args) -> None:
    lab = State(args.state).load()
    devices = status_devices(lab)
    if args.json:
        json.dump({"sender": lab["sender"], "devices": devices}, sys.stdout,
                  indent=2, ensure_ascii=False)
        print()
        return
    s = lab["sender"]
    print(f"sender: {s['ns']} {s['iface']} {s['ipv4']} {s['ipv6']}")
    print(f"devices: {len(devices)} in {len(lab['namespaces'])} namespaces")
    for d in devices:
        fn = next((t[3:] for t in d["txt"] if t.lower().startswith("fn=")), "")
        print(f"  {d['instance']}  {d['host']}:{d['port']}  {d['ipv4'] or '-'} {d['ipv6']}  "
              f"{d['namespace']}  fn={fn!r} apps={','.join(d['subtypes'])}")


def cmd_announce(args) -> None:
    """Every responder announces its devices' subtype records again (those that announce)."""
    lab = State(args.state).load()
    for nsd in lab["namespaces"]:
        call(args.state, nsd["ns"], {"cmd": "announce"})
    print(f"announced in {len(lab['namespaces'])} namespaces")


def cmd_namespaces(args) -> None:
    lab = State(args.state).load()
    for n in lab["namespaces"]:
        print(n["ns"], n["ipv4"] or "-", n.get("kind", "zeroconf"))


def main() -> int:
    ap = argparse.ArgumentParser(prog="castlab")
    ap.add_argument("--state", required=True)
    ap.add_argument("--prefix", default="castlab-")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan"); p.add_argument("fixture", nargs="?"); p.add_argument("--devices", type=int, default=0)
    p = sub.add_parser("add"); p.add_argument("entry")
    p = sub.add_parser("remove"); p.add_argument("instance")
    p = sub.add_parser("stop"); p.add_argument("instance")
    p = sub.add_parser("set-txt"); p.add_argument("instance"); p.add_argument("pairs", nargs="+")
    p = sub.add_parser("move"); p.add_argument("instance"); p.add_argument("--host"); p.add_argument("--port", type=int)
    p = sub.add_parser("status"); p.add_argument("--json", action="store_true")
    sub.add_parser("namespaces")
    sub.add_parser("announce")
    args = ap.parse_args()
    try:
        {"plan": cmd_plan, "add": cmd_add, "remove": lambda a: cmd_remove(a, False),
         "stop": lambda a: cmd_remove(a, True), "set-txt": cmd_set_txt, "move": cmd_move,
         "status": cmd_status, "namespaces": cmd_namespaces, "announce": cmd_announce}[args.cmd](args)
    except LabError as exc:
        print(f"castlab: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
