#!/usr/bin/env bash
# cast-scan-lab-test.sh: runs the built cast-scan inside the lab and compares its JSON with the
# lab's own device list and with avahi-browse -rpkt in the same namespace; checks the subtype
# filter, the simulated denied app, exit 69 without a daemon, and a live watch ended by SIGINT.
# Needs root. A lab that cannot start is a failure, never a skip. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
castlab="$here/Scripts/castlab"
export CASTLAB_STATE=${CASTLAB_STATE:-/run/castlab}
scratch=(); [ -n "${SWIFT_SCRATCH:-}" ] && scratch=(--scratch-path "$SWIFT_SCRATCH")
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
passed=0 failed=0 started=0
tmp=$(mktemp -d /tmp/cast-scan-lab-test.XXXXXX)

ok() { echo "ok - $*"; passed=$((passed + 1)); }
notok() { echo "not ok - $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@" >"$tmp/out" 2>&1; then ok "$what"; else notok "$what"; sed 's/^/#   /' "$tmp/out" >&2; fi; }

finish() {
  [ "$started" = 1 ] && "$castlab" down >/dev/null 2>&1
  rm -rf "$tmp"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
trap 'finish; exit $?' EXIT

cd "$here"
if ! swift build --product cast-scan "${scratch[@]}" >"$tmp/build" 2>&1; then
  cat "$tmp/build" >&2; notok "cast-scan builds"; exit 1
fi
bin=$(swift build --show-bin-path "${scratch[@]}")/cast-scan
if [ -e "$CASTLAB_STATE/lab.json" ]; then notok "a lab is already running (run: Scripts/castlab down)"; exit 1; fi
started=1
if ! "$castlab" up "$here/Fixtures/lab/real-world.json" >"$tmp/up" 2>&1; then
  cat "$tmp/up" >&2; notok "the lab could not start (see above)"; exit 1
fi
scan() { "$castlab" exec "$bin" --state "$tmp/state-$RANDOM.json" "$@"; }

"$castlab" status --json >"$tmp/lab.json"
"$castlab" exec avahi-browse -rpkt _googlecast._tcp >"$tmp/browse.txt"
scan --json >"$tmp/scan.json"; rc=$?
[ "$rc" = 0 ] && ok "cast-scan --json exits 0" || notok "cast-scan --json exits 0 (got $rc)"

compare() {  # the JSON matches the lab's list and avahi-browse: instances, hosts, ports, addresses, TXT
  "$PY" - "$tmp/scan.json" "$tmp/lab.json" "$tmp/browse.txt" <<'PY'
import json, re, sys
scan = json.load(open(sys.argv[1])); lab = json.load(open(sys.argv[2]))["devices"]
def unescape(s):
    out = bytearray(); i = 0; b = s.encode()
    while i < len(b):
        if b[i] == 0x5c and i + 3 < len(b) + 0 and b[i+1:i+4].isdigit():
            out.append(int(b[i+1:i+4])); i += 4
        elif b[i] == 0x5c and i + 1 < len(b):
            out.append(b[i+1]); i += 2
        else:
            out.append(b[i]); i += 1
    return out.decode("utf-8", "replace")
browse = {}
for line in open(sys.argv[3], encoding="utf-8", errors="replace"):
    f = line.rstrip("\n").split(";")
    if f[0] == "=" and len(f) >= 10:
        browse.setdefault(unescape(f[3]), set()).add((f[6], int(f[8]), f[7]))
assert scan["schemaVersion"] == 1 and scan["scan"]["complete"], scan["scan"]
got = {d["instanceName"]: d for d in scan["devices"]}
want = {d["instance"]: d for d in lab}
# One device per Cast id: every lab instance has a distinct id here.
assert set(got) == set(want) == set(browse), (sorted(got), sorted(want), sorted(browse))
for name, d in want.items():
    g = got[name]
    assert g["hostName"] == d["host"] and g["port"] == d["port"], (name, g["hostName"], g["port"])
    addrs = {a["address"].split("%")[0] for a in g["addresses"]}
    assert {d["ipv4"], d["ipv6"]} <= addrs, (name, addrs)
    assert {(h, p, a) for h, p, a in browse[name]} <= {(g["hostName"], g["port"], a) for a in addrs}, (name, browse[name])
    assert g["txt"] == d["txt"], (name, g["txt"], d["txt"])
    fn = next(t[3:] for t in d["txt"] if t.startswith("fn="))
    assert g["friendlyName"] == fn, (name, g["friendlyName"])
print("compared", len(got), "devices")
PY
}
check "JSON matches the lab's device list and avahi-browse -rpkt" compare

scan --json --app-id 233637DE >"$tmp/sub.json"
subtype() {
  "$PY" - "$tmp/sub.json" "$tmp/lab.json" <<'PY'
import json, sys
got = {d["instanceName"] for d in json.load(open(sys.argv[1]))["devices"]}
want = {d["instance"] for d in json.load(open(sys.argv[2]))["devices"] if "233637DE" in d["subtypes"]}
assert got == want and want, (got, want)
PY
}
check "--app-id 233637DE lists exactly the devices that support the app" subtype

scan --ios 17.4 --permission denied >"$tmp/denied.txt" 2>&1
check "a denied iOS app sees none of the 7 devices and is told why" \
  grep -q "The app sees 0 of the 7 Cast devices" "$tmp/denied.txt"
check "... and pointed to Settings" grep -q "Settings" "$tmp/denied.txt"

"$castlab" daemon stop >/dev/null 2>&1
scan >"$tmp/nodaemon.txt" 2>&1; rc=$?
[ "$rc" = 69 ] && ok "no daemon: exit 69" || notok "no daemon: exit 69 (got $rc)"
check "no daemon: the message says how to start it" grep -q "avahi-daemon is not running.*start it with" "$tmp/nodaemon.txt"
"$castlab" daemon start >/dev/null 2>&1

watch_live() {
  "$castlab" exec "$bin" watch --jsonl >"$tmp/watch.jsonl" 2>"$tmp/watch.err" &
  local pid=$!
  sleep 2
  "$castlab" set-txt "Chromecast-406c2bcdd5995755059b5bb045326056" rs=Netflix st=1 >/dev/null
  sleep 2
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
}
watch_live; rc=$?
[ "$rc" = 0 ] && ok "watch ends with exit 0 on SIGINT" || notok "watch ends with exit 0 on SIGINT (got $rc)"
watched() {
  "$PY" - "$tmp/watch.jsonl" <<'PY'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1])]
inserted = [e for e in events if e["event"] == "inserted"]
updated = [e for e in events if e["event"] in ("updated", "moved") and e["device"].get("statusText") == "Netflix"]
assert len(inserted) == 7, len(inserted)
assert updated, [e["event"] for e in events]
# A device's first copies are coalesced: its insert carries its IPv4 and IPv6 addresses, IPv4
# first, and no update follows until something really changes (the TXT change).
for e in inserted:
    families = [a["family"] for a in e["device"]["addresses"]]
    assert families[:1] == ["ipv4"] and "ipv6" in families, (e["device"]["friendlyName"], families)
first_change = events.index(updated[0])
early = [e["device"]["friendlyName"] for e in events[:first_change] if e["event"] in ("updated", "moved")]
assert not early, ("updates right after the inserts", early)
PY
}
check "watch --jsonl reports all 7 devices, each first with all its addresses, then the TXT change" watched
