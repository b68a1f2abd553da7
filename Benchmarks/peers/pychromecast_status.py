#!/usr/bin/env python3
"""pychromecast's way to a fleet's status: discover N casts, connect to each, wait for each
receiver status; prints one JSON object.

  pychromecast_status.py --expect N [--timeout 30]

discover_chromecasts(max_devices=N) (told the count, as pychromecast_scan.py --mode until-all
is), then get_chromecast_from_cast_info and start() for every cast at once (each has its own
socket thread), then wait() on each until its RECEIVER_STATUS arrived. Run it in the lab's
sender namespace. importSeconds: the imports; apiSeconds: from Zeroconf() to the last status;
statuses: how many casts reported a status within the time-out.
"""
import argparse
import json
import time

t_start = time.perf_counter()
import zeroconf  # noqa: E402
import pychromecast  # noqa: E402
from pychromecast.discovery import discover_chromecasts  # noqa: E402

t_imported = time.perf_counter()

ap = argparse.ArgumentParser()
ap.add_argument("--expect", type=int, required=True)
ap.add_argument("--timeout", type=float, default=30.0)
args = ap.parse_args()

t0 = time.perf_counter()
zc = zeroconf.Zeroconf()
infos, browser = discover_chromecasts(max_devices=args.expect, timeout=args.timeout, zeroconf_instance=zc)
casts = [pychromecast.get_chromecast_from_cast_info(info, zc, tries=1, timeout=args.timeout) for info in infos]
for cast in casts:
    cast.start()
deadline = t0 + args.timeout
statuses = 0
for cast in casts:
    cast.wait(timeout=max(0.0, deadline - time.perf_counter()))
    statuses += cast.status is not None
t1 = time.perf_counter()
for cast in casts:
    cast.disconnect(timeout=1)
browser.stop_discovery()
zc.close()
print(json.dumps({
    "count": len(infos),
    "statuses": statuses,
    "importSeconds": t_imported - t_start,
    "apiSeconds": t1 - t0,
    "pychromecast": getattr(pychromecast, "__version__", None),
}))
