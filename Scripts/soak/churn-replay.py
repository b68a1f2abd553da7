#!/usr/bin/env python3
"""churn-replay.py: writes a replay recording of Cast devices that churn for a while.

  churn-replay.py --seconds S --devices N [--rate R] > recording.json

N devices are found in the first second; then, for S seconds, R changes a second spread over
them: mostly TXT updates (status, app, friendly name), and every 20th change a device leaves
and comes back half a second later. Used by Tests/Scripts/soak-test.sh for a `watch --report`
that must stay flat in memory, descriptors and threads.
"""
import argparse
import json
import sys


def service(index: int, generation: int) -> dict:
    ident = f"{index:08x}" + "5ca1ab1e" * 3
    apps = ["", "YouTube", "Spotify", "Netflix"]
    return {
        "instance": f"Chromecast-{ident}",
        "host": f"{ident}.local",
        "port": 8009,
        "addresses": [{"address": f"10.77.{index // 250}.{index % 250 + 1}", "interface": "eth0", "interfaceIndex": 2}],
        "txt": [f"id={ident}", "ve=05", "md=Chromecast", f"fn=Soak {index} #{generation}", "ca=200709",
                f"st={generation % 2}", f"rs={apps[generation % 4]}"],
        "browseTypes": ["_googlecast._tcp"],
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--devices", type=int, default=50)
    ap.add_argument("--rate", type=float, default=40)
    args = ap.parse_args()
    if not (1 <= args.devices <= 5000 and 0 < args.seconds <= 86400 and 0 < args.rate <= 1000):
        print("churn-replay.py: devices 1-5000, seconds up to a day, rate up to 1000", file=sys.stderr)
        return 64
    events = [{"at": 0.0, "kind": "state", "state": "running"}]
    for index in range(args.devices):
        events.append({"at": round(0.5 * index / args.devices, 4), "kind": "found", "service": service(index, 0)})
    events.append({"at": 0.8, "kind": "allForNow", "browseType": "_googlecast._tcp"})
    generation = [0] * args.devices
    count = int(args.seconds * args.rate)
    for step in range(count):
        at = round(1.0 + step / args.rate, 4)
        index = step % args.devices
        generation[index] += 1
        if step % 20 == 19:
            events.append({"at": at, "kind": "removed", "service": service(index, generation[index] - 1)})
            events.append({"at": round(at + 0.5, 4), "kind": "found", "service": service(index, generation[index])})
        else:
            events.append({"at": at, "kind": "updated", "service": service(index, generation[index])})
    events.sort(key=lambda e: e["at"])
    json.dump({"version": 1, "description": f"{args.devices} devices churning for {args.seconds:g} s", "events": events},
              sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
