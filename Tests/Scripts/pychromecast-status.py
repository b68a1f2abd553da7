#!/usr/bin/env python3
"""pychromecast-status.py: pychromecast (an independent Cast client) reads a receiver's status and
waits for a change; prints one JSON line per step. Run in the lab's sender namespace with the
benchmark venv's python (pychromecast, zeroconf).

    pychromecast-status.py --name FRIENDLY_NAME --ready FILE --expect-app NAME [--expect-volume LEVEL]

Finds the device by its friendly name (get_listed_chromecasts, up to 20 s), connects (wait),
prints {"initial": STATUS}, creates FILE (the caller may
change the device now), then waits up to 30 s for a status whose display_name is NAME (and,
with --expect-volume, whose volume_level is LEVEL) and prints {"changed": STATUS}. STATUS:
app_id, display_name, status_text, volume_level, volume_muted, is_stand_by, is_active_input.
Exits 1 with the reason on stderr when a step does not happen in time.
"""
import argparse
import json
import queue
import sys
import time

import pychromecast


def describe(status):
    return {"app_id": status.app_id, "display_name": status.display_name, "status_text": status.status_text,
            "volume_level": status.volume_level, "volume_muted": status.volume_muted,
            "is_stand_by": status.is_stand_by, "is_active_input": status.is_active_input}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--ready", required=True)
    ap.add_argument("--expect-app", required=True)
    ap.add_argument("--expect-volume", type=float)
    args = ap.parse_args()
    casts, browser = pychromecast.get_listed_chromecasts(friendly_names=[args.name], discovery_timeout=20)
    try:
        if not casts:
            print(f"no device named {args.name!r} found within 20 s", file=sys.stderr)
            return 1
        cast = casts[0]
        cast.wait(timeout=20)
        if cast.status is None:
            print("no status within 20 s of connecting", file=sys.stderr)
            return 1
        info = cast.cast_info
        print(json.dumps({"initial": describe(cast.status), "host": info.host, "port": info.port}), flush=True)
        changes = queue.Queue()

        class Listener:
            def new_cast_status(self, status):
                changes.put(status)

        cast.register_status_listener(Listener())
        open(args.ready, "w").close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                status = changes.get(timeout=0.5)
            except queue.Empty:
                continue
            if status.display_name == args.expect_app and (
                    args.expect_volume is None or abs((status.volume_level or 0) - args.expect_volume) < 1e-9):
                print(json.dumps({"changed": describe(status)}), flush=True)
                cast.disconnect(timeout=5)
                return 0
        print(f"no status with {args.expect_app!r} within 30 s", file=sys.stderr)
        return 1
    finally:
        browser.stop_discovery()


if __name__ == "__main__":
    sys.exit(main())
