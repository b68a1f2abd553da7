#!/usr/bin/env python3
"""channel-lab-check.py: cast-scan's view of the lab's Cast channels against what the lab serves.

    channel-lab-check.py LAB.json OUTPUT.json --kind listing|status|watch

LAB.json: `castlab status --json` (each device's "receiver": the status it serves, or its
failure mode). OUTPUT.json: `cast-scan --status --json` (--kind listing: each device's
"receiver" object, matched to the lab's device by instance name) or `cast-scan status --json
HOST:PORT...` (--kind status: "receivers", matched by address and port) or the lines of
`cast-scan watch --status --jsonl` (--kind watch: each device's last receiverStatus or
unreachable line, matched by friendly name). A device that serves
a status must be reachable with that status, key by key as the protocol names them (keys the
model does not know, such as the fixture's futureKey, left out); a device with a failure mode
must be unreachable with that mode's reason. Prints one line per device; exits 1 on the first
mismatch list. Stdlib only.
"""
import argparse
import json
import sys

REASONS = {"refuse": "refused", "drop": "timeout", "stallTLS": "tls", "noStatus": "noStatus",
           "hugeFrame": "protocol", "garbage": "protocol", "notJSON": "protocol"}
APP_KEYS = ("appId", "universalAppId", "displayName", "statusText", "isIdleScreen", "appType", "sessionId")
VOLUME_KEYS = ("level", "muted", "controlType", "stepInterval")


def expected_status(served):
    status = {}
    if "applications" in served:
        status["applications"] = [{k: a[k] for k in APP_KEYS if k in a} for a in served["applications"]]
    if "volume" in served:
        status["volume"] = {k: served["volume"][k] for k in VOLUME_KEYS if k in served["volume"]}
    for key in ("isActiveInput", "isStandBy"):
        if key in served:
            status[key] = served[key]
    return status


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lab")
    parser.add_argument("output")
    parser.add_argument("--kind", choices=("listing", "status", "watch"), required=True)
    args = parser.parse_args()
    lab = json.load(open(args.lab, encoding="utf-8"))["devices"]
    if args.kind == "watch":
        got = {}
        for text in open(args.output, encoding="utf-8"):
            line = json.loads(text)
            if line.get("event") in ("receiverStatus", "unreachable", "reachable"):
                got[line.get("friendlyName")] = line["receiver"]
        key_of = lambda device: next((t[3:] for t in device["txt"] if t.startswith("fn=")), None)
    elif args.kind == "listing":
        output = json.load(open(args.output, encoding="utf-8"))
        got = {d["instanceName"]: d.get("receiver") for d in output["devices"]}
        key_of = lambda device: device["instance"]
    else:
        output = json.load(open(args.output, encoding="utf-8"))
        got = {(r["host"], r["port"]): r for r in output["receivers"]}
        key_of = lambda device: (device["ipv4"] or device["ipv6"], device["port"])
    problems = []
    for device in lab:
        served = device.get("receiver")
        if served is None:
            continue
        name = device["instance"]
        receiver = got.get(key_of(device))
        if receiver is None:
            problems.append(f"{name}: not in the output")
            continue
        failure = served.get("failure")
        if failure:
            code = (receiver.get("error") or {}).get("code")
            if receiver.get("reachable") is not False or code != REASONS[failure]:
                problems.append(f"{name} ({failure}): reachable {receiver.get('reachable')}, code {code}, not {REASONS[failure]}")
            else:
                print(f"{name}: {failure} -> {code}: {receiver['error'].get('message')}")
            continue
        want = expected_status(served["status"])
        if receiver.get("reachable") is not True:
            problems.append(f"{name}: not reachable: {receiver.get('error')}")
        elif receiver.get("status") != want:
            problems.append(f"{name}: status {json.dumps(receiver.get('status'), ensure_ascii=False)}, "
                            f"the lab serves {json.dumps(want, ensure_ascii=False)}")
        else:
            print(f"{name}: the served status ({receiver['tls']['protocol']})")
    for problem in problems:
        print(f"mismatch: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
