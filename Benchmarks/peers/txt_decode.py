#!/usr/bin/env python3
"""The peer of cast-bench: python-zeroconf decodes the same TXT wire records.

  txt_decode.py RECORDS-FILE [--count N]

Per record, what pychromecast's CastBrowser does with a resolved service: a zeroconf
ServiceInfo given the TXT rdata, its properties decoded (zeroconf's own, Cython-compiled
parser), then fn / md / id read, the id parsed as a UUID and a CastInfo built. Records whose
id is not a UUID (emulators) stop after the id, as pychromecast drops them.
Prints one JSON object: records, seconds, recordsPerSecond, and the same figures for the
zeroconf decoding alone (zeroconfOnly).
"""
import argparse
import json
import time
from uuid import UUID

from zeroconf import ServiceInfo
from pychromecast.const import CAST_TYPE_GROUP, CAST_TYPES, MF_GOOGLE
from pychromecast.models import CastInfo, MDNSServiceInfo

TYPE = "_googlecast._tcp.local."

ap = argparse.ArgumentParser()
ap.add_argument("records")
ap.add_argument("--count", type=int, default=200_000)
args = ap.parse_args()

records = []
for line in open(args.records, encoding="utf-8"):
    if line.strip():
        inst, host, port, wire = line.rstrip("\n").split("\t")
        records.append((f"{inst}.{TYPE}", host + ".", int(port), bytes.fromhex(wire)))


def pychromecast_style(n):
    checksum = 0
    m = len(records)
    for i in range(n):
        name, host, port, wire = records[i % m]
        service = ServiceInfo(TYPE, name, port=port, properties=wire, server=host,
                              parsed_addresses=["10.213.1.1"])
        props = service.properties

        def get_value(key):
            value = props.get(key.encode("utf-8"))
            return value if value is None or isinstance(value, str) else value.decode("utf-8", "replace")

        friendly_name = get_value("fn")
        model_name = get_value("md") or "Unknown model name"
        uuid_str = get_value("id")
        if not uuid_str:
            continue
        try:
            uuid = UUID(uuid_str)
        except ValueError:
            continue
        if service.port != 8009:
            cast_type, manufacturer = CAST_TYPE_GROUP, MF_GOOGLE
        else:
            cast_type, manufacturer = CAST_TYPES.get(model_name.lower(), (None, None))
        info = CastInfo({MDNSServiceInfo(name)}, uuid, model_name, friendly_name,
                        service.parsed_addresses()[0], service.port, cast_type, manufacturer)
        checksum += len(info.friendly_name or "")
    return checksum


def zeroconf_only(n):
    checksum = 0
    m = len(records)
    for i in range(n):
        name, host, port, wire = records[i % m]
        service = ServiceInfo(TYPE, name, port=port, properties=wire, server=host)
        checksum += len(service.decoded_properties)
    return checksum


def measure(fn):
    fn(min(args.count, 10_000))  # warm-up
    t0 = time.perf_counter()
    fn(args.count)
    s = time.perf_counter() - t0
    return {"records": args.count, "seconds": s, "recordsPerSecond": args.count / s}


out = measure(pychromecast_style)
out["distinctRecords"] = len(records)
out["zeroconfOnly"] = measure(zeroconf_only)
print(json.dumps(out, sort_keys=True))
