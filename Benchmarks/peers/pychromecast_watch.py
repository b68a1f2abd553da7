#!/usr/bin/env python3
"""A pychromecast CastBrowser that prints one JSON line per add/remove until SIGINT/SIGTERM.

Each line: {"time": epoch seconds, "event": "inserted"|"removed", "instance": name, "uuid": id}.
Run inside the lab's sender namespace (pychromecast has its own mDNS stack).
"""
import json
import signal
import sys
import threading
import time

import zeroconf
from pychromecast.discovery import CastBrowser, SimpleCastListener

done = threading.Event()
lock = threading.Lock()


def emit(event, uuid, service):
    now = time.time()
    instance = service.split("._googlecast._tcp", 1)[0]
    with lock:
        sys.stdout.write(json.dumps({"time": now, "event": event, "instance": instance, "uuid": str(uuid)}) + "\n")
        sys.stdout.flush()


signal.signal(signal.SIGINT, lambda *_: done.set())
signal.signal(signal.SIGTERM, lambda *_: done.set())
zc = zeroconf.Zeroconf()
browser = CastBrowser(SimpleCastListener(lambda u, s: emit("inserted", u, s),
                                         lambda u, s, _info: emit("removed", u, s)), zc)
browser.start_discovery()
done.wait()
browser.stop_discovery()
zc.close()
