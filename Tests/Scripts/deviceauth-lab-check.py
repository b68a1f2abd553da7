#!/usr/bin/env python3
"""Checks cast-scan's device-authentication verdicts against what the lab's receivers do.

    deviceauth-lab-check.py LAB_JSON OUTPUT --kind status|listing|watch|metrics [--untrusted]

LAB_JSON is `castlab status --json` of Fixtures/lab/deviceauth.json: each device's
receiver.auth is its mode (Scripts/lab/deviceauth.py). OUTPUT is `cast-scan status --json`,
`cast-scan --status --json`, `watch --status --jsonl` or a /metrics scrape. --untrusted: the
sender was not given the lab's root, so the chains that would pass are untrustedChain.
Exit 0 when every device has the verdict its mode calls for, else 1 with the differences.
"""
import argparse
import json
import re
import sys

# The failure each mode gives (None: genuine); every verdict is checked, none skipped.
EXPECTED = {
    "genuine": None, "audioOnly": None, "untrustedChain": "untrustedChain", "badSignature": "signature",
    "tlsLongLived": "tlsCertificate", "expiredIntermediate": "expired", "revoked": "revoked",
    "noAnswer": "noResponse", "authError": "authError", "hostileMany": "malformed",
    "hostileNotDER": "malformed", "hostileHuge": "malformed",
}


def expected(device, untrusted):
    mode = device["receiver"]["auth"]
    want = EXPECTED[mode]
    if untrusted and mode in ("genuine", "audioOnly", "revoked", "expiredIntermediate"):
        # Without the lab's root no lab chain passes: what the chain or revocation would have
        # said is untrustedChain; the checks before the chain fail first as they do.
        want = "untrustedChain"
    return mode, want


def uid(device):
    return "googlecast:" + next(t[3:] for t in device["txt"] if t.startswith("id=")).lower()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lab")
    parser.add_argument("output")
    parser.add_argument("--kind", required=True, choices=("status", "listing", "watch", "metrics"))
    parser.add_argument("--untrusted", action="store_true")
    args = parser.parse_args()
    lab = json.load(open(args.lab))["devices"]
    text = open(args.output).read()
    by_address, by_uid = {}, {}
    if args.kind == "status":
        for receiver in json.loads(text)["receivers"]:
            by_address[(receiver["host"], receiver["port"])] = receiver.get("auth")
    elif args.kind == "listing":
        for device in json.loads(text)["devices"]:
            by_uid[device["uniqueID"]] = (device.get("receiver") or {}).get("auth")
    elif args.kind == "watch":
        for line in text.splitlines():
            event = json.loads(line)
            if event.get("event") in ("authenticated", "notAuthenticated"):
                by_uid[event["uniqueID"]] = event["receiver"]["auth"]
    else:
        for m in re.finditer(r'^cast_device_authentication_info\{unique_id="([^"]*)",result="([^"]*)",'
                             r'audio_only="([^"]*)",anchor="([^"]*)",impostor_of="([^"]*)"\} 1$', text, re.M):
            by_uid[m.group(1)] = {"failure": None if m.group(2) == "genuine" else m.group(2),
                                  "audioOnly": m.group(3) == "true", "anchorKind": m.group(4) or None,
                                  "impostorOf": {"uniqueID": m.group(5)} if m.group(5) else None}
    names = {}
    for device in lab:
        name = next(t[3:] for t in device["txt"] if t.startswith("fn="))
        names.setdefault(name, []).append(device)
    problems, checked = [], 0
    for device in lab:
        mode, want = expected(device, args.untrusted)
        if args.kind == "status":
            auth = by_address.get((device["ipv4"], device["port"]))
        else:
            auth = by_uid.get(uid(device))
        if auth is None:
            problems.append(f"{device['instance']} ({mode}): no verdict")
            continue
        checked += 1
        got = auth.get("failure")
        if got != want:
            problems.append(f"{device['instance']} ({mode}): {got}, not {want}")
        if want is None:
            if auth.get("audioOnly") != (mode == "audioOnly"):
                problems.append(f"{device['instance']} ({mode}): audioOnly {auth.get('audioOnly')}")
            if auth.get("anchorKind") != "custom":
                problems.append(f"{device['instance']} ({mode}): anchor {auth.get('anchorKind')}, not custom")
        # An impostor: a failing device beside a passing one of the same friendly name (the
        # status command knows no names: it names none).
        name = next(t[3:] for t in device["txt"] if t.startswith("fn="))
        passing = [d for d in names[name] if d is not device and expected(d, args.untrusted)[1] is None]
        impostor_of = (auth.get("impostorOf") or {}).get("uniqueID")
        want_impostor = uid(passing[0]) if want is not None and passing and args.kind != "status" else None
        if impostor_of != want_impostor:
            problems.append(f"{device['instance']} ({mode}): impostor of {impostor_of}, not {want_impostor}")
    if problems:
        print("\n".join(problems))
        return 1
    print(f"{checked} devices: each verdict as its mode calls for")
    return 0


if __name__ == "__main__":
    sys.exit(main())
