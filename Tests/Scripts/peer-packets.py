#!/usr/bin/env python3
"""Packets from real devices, as python-zeroconf reads them, for DNSPeerPacketTests.

    peer-packets.py --out DIR [--cache DIR]

python-zeroconf's own tests (tests/test_protocol.py of its sdist) keep packets captured from
real devices (an Android TV, Sonos, eufy, Matter, Thread border routers...) and packets made
to break parsers. They are that project's test data, so they are not copied into this one:
this script fetches the sdist pinned below (PyPI's JSON API names its URL; the file must have
the pinned sha256), keeps it in the cache (default .build/peer-packets-cache), and reads the
test file without running it (`ast`): in each test function, every bytes constant assigned to
`packet`, `packets` or a name ending in `_packet` (adjacent literals and `+` of literals
folded), and every string passed to `bytes.fromhex` (a literal, or a name assigned a string
literal in the same function).

Each packet is read by python-zeroconf's DNSIncoming (the version of the lab's venv, which must
be the pinned one), and each from which it reads at least one question or record is written to
DIR as Fixtures/packets/*.json are ({"description", "source", "hex", "expected"}; "expected" is
Scripts/lab/capture-packets.py's), named after its test function. Prints how many packets were
found and written; exits 1 when fewer than MINIMUM were written, or the sdist is not the pinned
one.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import io
import json
import os
import sys
import tarfile
import urllib.error
import urllib.parse
import urllib.request

VERSION = "0.154.0"
SDIST = f"zeroconf-{VERSION}.tar.gz"
SHA256 = "830315497af9bbd75924c2218cd3b64f0bde0e808ee316aabb5d9288836c0c43"
# Where the pinned file is, should the JSON API not answer.
FALLBACK_URL = (
    "https://files.pythonhosted.org/packages/d6/dd/"
    f"b1eb6a87dc0376289fb78c13231c4702797da49dd0da062c5d46a4cff865/{SDIST}"
)
MEMBER = f"zeroconf-{VERSION}/tests/test_protocol.py"
# The pinned file holds 26 packets, 19 of which python-zeroconf reads something from: fewer
# written means the packets are no longer found as they were.
MINIMUM = 19

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def log(message: str) -> None:
    print(f"peer-packets: {message}", file=sys.stderr)


def sdist_url() -> str:
    """The sdist's URL as PyPI's JSON API gives it (the release's page, else the project's)."""
    for api in (f"https://pypi.org/pypi/zeroconf/{VERSION}/json", "https://pypi.org/pypi/zeroconf/json"):
        try:
            with urllib.request.urlopen(api, timeout=60) as response:
                doc = json.load(response)
        except (urllib.error.URLError, OSError, ValueError) as error:
            log(f"{api}: {error}")  # a mirror may serve only the project's page
            continue
        # The release's page lists its files under "urls"; the project's, under "releases".
        files = doc.get("urls") if api.endswith(f"/{VERSION}/json") else doc.get("releases", {}).get(VERSION)
        for entry in files or []:
            if entry.get("packagetype") == "sdist" and entry.get("filename", SDIST) == SDIST:
                if entry.get("digests", {}).get("sha256") != SHA256:
                    raise SystemExit(f"peer-packets: PyPI gives {SDIST} the sha256 "
                                     f"{entry.get('digests', {}).get('sha256')}, not the pinned {SHA256}")
                # A mirror may give it relative to the API's address.
                return urllib.parse.urljoin(api, entry["url"])
    log("no sdist named by the JSON API: the pinned URL")
    return FALLBACK_URL


def fetch_sdist(cache: str) -> bytes:
    path = os.path.join(cache, SDIST)
    if os.path.exists(path):
        with open(path, "rb") as f:
            data = f.read()
        if hashlib.sha256(data).hexdigest() == SHA256:
            return data
        log(f"{path} is not the pinned file: fetched again")
    url = sdist_url()
    with urllib.request.urlopen(url, timeout=120) as response:
        data = response.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256:
        raise SystemExit(f"peer-packets: {url} has sha256 {digest}, not the pinned {SHA256}")
    os.makedirs(cache, exist_ok=True)
    with open(path + ".part", "wb") as f:
        f.write(data)
    os.replace(path + ".part", path)
    return data


def test_source(sdist: bytes) -> str:
    with tarfile.open(fileobj=io.BytesIO(sdist), mode="r:gz") as tar:
        member = tar.extractfile(MEMBER)
        if member is None:
            raise SystemExit(f"peer-packets: no {MEMBER} in {SDIST}")
        return member.read().decode("utf-8")


def fold(node: ast.AST, strings: dict[str, object]) -> object | None:
    """The constant an expression is, when it is literals (and `+` of them), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (bytes, str)):
        return node.value
    if isinstance(node, ast.Name):
        return strings.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = fold(node.left, strings), fold(node.right, strings)
        if left is not None and right is not None and type(left) is type(right):
            return left + right  # type: ignore[operator]
    return None


def is_packet_name(name: str) -> bool:
    return name in ("packet", "packets") or name.endswith("_packet")


def packets_in(source: str) -> list[tuple[str, bytes]]:
    """(test function, packet bytes) for every packet the file's test functions hold."""
    found: list[tuple[str, bytes]] = []
    for function in ast.parse(source).body:
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        strings: dict[str, object] = {}  # names assigned literals in this function, in order
        packets: list[bytes] = []
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) and name == "packets" \
                    else [node.value]
                for value in values:
                    folded = fold(value, strings)
                    if isinstance(folded, str):
                        strings[name] = folded
                    elif isinstance(folded, bytes) and is_packet_name(name):
                        packets.append(folded)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fromhex"
                  and isinstance(node.func.value, ast.Name) and node.func.value.id == "bytes" and len(node.args) == 1):
                text = fold(node.args[0], strings)
                if isinstance(text, str):
                    packets.append(bytes.fromhex(text))
        # ast.walk goes breadth first: assignments are seen before the calls nested deeper that
        # use them, which is all the names bytes.fromhex gets in this file.
        seen: set[bytes] = set()
        for packet in packets:
            if packet not in seen:
                seen.add(packet)
                found.append((function.name, packet))
    return found


def load_expected():
    """Scripts/lab/capture-packets.py's `expected`: the message as DNSIncoming reads it."""
    spec = importlib.util.spec_from_file_location("capture_packets", os.path.join(ROOT, "Scripts/lab/capture-packets.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines functions only; main() runs under __main__
    return module.expected


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="where the packets' JSON files go (made if missing)")
    ap.add_argument("--cache", default=os.path.join(ROOT, ".build/peer-packets-cache"),
                    help="where the sdist is kept (default .build/peer-packets-cache)")
    args = ap.parse_args()

    try:
        import zeroconf
        from zeroconf._protocol.incoming import DNSIncoming
    except ImportError:
        raise SystemExit(f"peer-packets: no python-zeroconf in {sys.executable}: run with the lab's venv (Scripts/lab-venv)")
    if zeroconf.__version__ != VERSION:
        raise SystemExit(f"peer-packets: python-zeroconf {zeroconf.__version__} here, the packets are {VERSION}'s: "
                         "run with the lab's venv (Scripts/lab-venv)")
    expected = load_expected()
    found = packets_in(test_source(fetch_sdist(args.cache)))
    os.makedirs(args.out, exist_ok=True)
    source = f"python-zeroconf {VERSION}, tests/test_protocol.py"
    written = 0
    per_test: dict[str, int] = {}
    for test, packet in found:
        msg = DNSIncoming(packet)
        doc = expected(msg)
        if not doc["questions"] and not doc["records"]:
            continue
        index = per_test.get(test, 0)
        per_test[test] = index + 1
        slug = test if index == 0 else f"{test}-{index + 1}"
        with open(os.path.join(args.out, slug + ".json"), "w", encoding="utf-8") as f:
            json.dump({"description": test, "source": source, "hex": packet.hex(), "expected": doc}, f,
                      indent=1, ensure_ascii=False)
            f.write("\n")
        written += 1
    print(f"peer-packets: {len(found)} packets found in {MEMBER}, {written} written to {args.out} "
          f"(the others give python-zeroconf no question and no record)")
    if written < MINIMUM:
        print(f"peer-packets: fewer than {MINIMUM} packets written", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
