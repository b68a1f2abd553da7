#!/usr/bin/env python3
"""One pychromecast discovery, as catt and Home Assistant do it; prints one JSON object.

  pychromecast_scan.py --mode fixed --timeout 5          discover_chromecasts(timeout=5)
  pychromecast_scan.py --mode until-all --expect N       returns as soon as N casts are known

pychromecast runs its own mDNS stack (python-zeroconf), so run it inside the lab's sender
namespace. importSeconds: python imports; apiSeconds: Zeroconf() + discovery until it returns.
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
ap.add_argument("--mode", choices=["fixed", "until-all"], required=True)
ap.add_argument("--timeout", type=float, default=5.0)
ap.add_argument("--expect", type=int, default=None)
args = ap.parse_args()

t0 = time.perf_counter()
zc = zeroconf.Zeroconf()
casts, browser = discover_chromecasts(
    max_devices=args.expect if args.mode == "until-all" else None,
    timeout=args.timeout, zeroconf_instance=zc)
t1 = time.perf_counter()
browser.stop_discovery()
zc.close()
print(json.dumps({
    "count": len(casts),
    "uuids": sorted(str(c.uuid) for c in casts),
    "importSeconds": t_imported - t_start,
    "apiSeconds": t1 - t0,
    "pychromecast": getattr(pychromecast, "__version__", None),
    "zeroconf": zeroconf.__version__,
}))
