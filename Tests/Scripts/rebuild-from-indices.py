#!/usr/bin/env python3
"""rebuild-from-indices.py: a client of `cast-scan watch --jsonl` that keeps its copy of the list
from the indices alone, as docs/library.md ("The discovery manager") says it can, and checks
the copy.

    rebuild-from-indices.py WATCH.jsonl [--scan SCAN.json [--scan-addresses exact|subset]]
                            [--like UNFILTERED.jsonl] [--family ipv4|ipv6] [--interface NAME]
                            [--count N] [--min-count N] [--live]

The list starts empty. `inserted` inserts the line's device at `index`; `updated` replaces the
device at `index`; `moved` takes the device at `index` out and inserts the line's device at
`toIndex`; `removed` takes the device at `index` out. An index out of range, or (for updated,
moved, removed) a device at `index` whose uniqueID is not the line's, fails at once, naming the
line. Other lines (backendChosen, scanCompleted, statistics...) are skipped.

Then, with --scan, the copy must equal the `devices[]` of that `cast-scan --json` output: the
same uniqueIDs in the same order, each with the same set of addresses (address, family,
interface); with --scan-addresses subset, each scan device's addresses need only be among the
copy's (a one-shot scan that ends before every copy of a device arrived), and what the scan
lacks is printed as a note. With --like, the copy must equal the copy rebuilt (the same way)
from that other watch's lines with --family / --interface applied to it: its addresses that
obey them, and its devices left with any. With --family / --interface, every address of every
device line and of the scan must obey the filter. --count N: the copy holds exactly N devices;
--min-count N: at least N. --live: the watch (and --like's) may still be writing: a last line
without its newline is not read yet (a finished watch ends every line).
Prints one summary line; exits 1 with the reason on stderr when a check fails. Stdlib only.
"""
import argparse
import json
import sys


class Failure(Exception):
    pass


def addresses(device):
    return sorted((a.get("address"), a.get("family"), a.get("interface")) for a in device.get("addresses", []))


def describe(device):
    return f'{device.get("uniqueID")} ({device.get("friendlyName")!r})'


def check_filter(device, family, interface, where):
    for a in device.get("addresses", []):
        if family and a.get("family") != family:
            raise Failure(f"{where}: {describe(device)} has {a.get('address')} ({a.get('family')}), not {family}")
        if interface and a.get("interface") != interface:
            raise Failure(f"{where}: {describe(device)} has {a.get('address')} on {a.get('interface')!r}, not {interface!r}")


def obeys(address, family, interface):
    return (not family or address.get("family") == family) and (not interface or address.get("interface") == interface)


def rebuild(path, family=None, interface=None, live=False):
    """The list the indices of the watch's device lines give, and how many lines made it."""
    copy, changes = [], 0
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            if live and not text.endswith("\n"):
                break
            if not text.strip():
                continue
            try:
                line = json.loads(text)
            except ValueError as error:
                raise Failure(f"line {number} is not JSON ({error}): {text.strip()[:200]}")
            kind = line.get("event")
            if kind not in ("inserted", "updated", "moved", "removed"):
                continue
            changes += 1
            where = f"line {number} ({kind} at {line.get('index')}" + (
                f" to {line.get('toIndex')}" if kind == "moved" else "") + f", {len(copy)} listed)"
            device, index = line.get("device"), line.get("index")
            if not isinstance(device, dict) or not isinstance(index, int) or isinstance(index, bool):
                raise Failure(f"{where}: no device or no integer index: {text.strip()[:200]}")
            check_filter(device, family, interface, where)
            if kind == "inserted":
                if not 0 <= index <= len(copy):
                    raise Failure(f"{where}: index out of range for {describe(device)}; the copy: "
                                  f"{[d['uniqueID'] for d in copy]}")
                copy.insert(index, device)
                continue
            if not 0 <= index < len(copy):
                raise Failure(f"{where}: index out of range for {describe(device)}; the copy: "
                              f"{[d['uniqueID'] for d in copy]}")
            if copy[index].get("uniqueID") != device.get("uniqueID"):
                raise Failure(f"{where}: the copy holds {describe(copy[index])} there, the line names {describe(device)}")
            if kind == "updated":
                copy[index] = device
            elif kind == "removed":
                del copy[index]
            else:
                to = line.get("toIndex")
                if not isinstance(to, int) or isinstance(to, bool):
                    raise Failure(f"{where}: moved without an integer toIndex")
                del copy[index]
                if not 0 <= to <= len(copy):
                    raise Failure(f"{where}: toIndex out of range for {describe(device)}")
                copy.insert(to, device)
    ids = [d.get("uniqueID") for d in copy]
    if len(set(ids)) != len(ids):
        raise Failure(f"the copy lists a uniqueID twice: {ids}")
    return copy, changes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("watch")
    parser.add_argument("--scan")
    parser.add_argument("--scan-addresses", choices=("exact", "subset"), default="exact")
    parser.add_argument("--like")
    parser.add_argument("--family", choices=("ipv4", "ipv6"))
    parser.add_argument("--interface")
    parser.add_argument("--count", type=int)
    parser.add_argument("--min-count", type=int)
    parser.add_argument("--live", action="store_true")
    args = parser.parse_args()
    notes = []
    try:
        copy, changes = rebuild(args.watch, args.family, args.interface, args.live)
        if args.like:
            other, _ = rebuild(args.like, live=args.live)
            want = []
            for d in other:
                kept = [a for a in d.get("addresses", []) if obeys(a, args.family, args.interface)]
                if kept:
                    want.append((d["uniqueID"], addresses({"addresses": kept})))
            got = [(d["uniqueID"], addresses(d)) for d in copy]
            if [u for u, _ in got] != [u for u, _ in want]:
                raise Failure(f"the copy lists {[u for u, _ in got]}; {args.like}, filtered, {[u for u, _ in want]}")
            for (uid, mine), (_, theirs) in zip(got, want):
                if mine != theirs:
                    raise Failure(f"{uid}: the copy has addresses {mine}; {args.like}, filtered, {theirs}")
        if args.scan:
            with open(args.scan, encoding="utf-8") as f:
                scan = json.load(f)["devices"]
            for device in scan:
                check_filter(device, args.family, args.interface, "the scan")
            want = [(d["uniqueID"], addresses(d)) for d in scan]
            got = [(d["uniqueID"], addresses(d)) for d in copy]
            if [u for u, _ in got] != [u for u, _ in want]:
                raise Failure(f"the copy lists {[u for u, _ in got]}, the scan {[u for u, _ in want]}")
            for (uid, mine), (_, theirs) in zip(got, want):
                if args.scan_addresses == "subset" and set(theirs) <= set(mine) and theirs:
                    if theirs != mine:
                        notes.append(f"{uid}: the scan lacks {sorted(set(mine) - set(theirs))}")
                elif mine != theirs:
                    raise Failure(f"{uid}: the copy has addresses {mine}, the scan {theirs}")
        if args.count is not None and len(copy) != args.count:
            raise Failure(f"the copy lists {len(copy)} devices, not {args.count}: {[d['uniqueID'] for d in copy]}")
        if args.min_count is not None and len(copy) < args.min_count:
            raise Failure(f"the copy lists {len(copy)} devices, fewer than {args.min_count}")
    except Failure as failure:
        print(f"rebuild-from-indices: {args.watch}: {failure}", file=sys.stderr)
        return 1
    print(f"rebuilt {len(copy)} devices from {changes} changes" + (", as the scan lists them" if args.scan else ""))
    for note in notes:
        print(f"note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
