#!/usr/bin/env bash
# cast-scan-lab-test.sh: runs the built cast-scan inside the lab and compares its JSON with the
# lab's own device list and with avahi-browse -rpkt in the same namespace; checks the subtype
# filter, the simulated denied app, a live watch ended by SIGINT; the same with the built-in mDNS
# querier (--backend mdns); and what a machine without avahi-daemon, or without D-Bus at all,
# gets: `--backend auto` (the default) falls back to the querier and lists every device, while
# `--backend avahi` exits 69 and says how to start the daemon.
# Needs root. A lab that cannot start is a failure, never a skip. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" cast-scan-lab-test
check() { local what=$1; shift; if "$@" >"$tmp/out" 2>&1; then ok "$what"; else notok "$what"; diag <"$tmp/out"; fi; }
build_cast_scan
lab_up "$here/Fixtures/lab/real-world.json"
scan() { "$castlab" exec "$bin" --state "$tmp/state-$RANDOM.json" "$@"; }

"$castlab" status --json >"$tmp/lab.json"
"$castlab" exec avahi-browse -rpkt _googlecast._tcp >"$tmp/browse.txt"
scan --json >"$tmp/scan.json"; rc=$?
[ "$rc" = 0 ] && ok "cast-scan --json exits 0" || notok "cast-scan --json exits 0 (got $rc)"

compare() {  # [FILE] the JSON matches the lab's list and avahi-browse: instances, hosts, ports, addresses, TXT
  "$PY" - "${1:-$tmp/scan.json}" "$tmp/lab.json" "$tmp/browse.txt" "${2:-}" <<'PY'
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
if sys.argv[4]:
    assert scan["scan"]["backend"] == sys.argv[4], (scan["scan"]["backend"], scan["scan"].get("backendReason"))
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
check "default (the querier beside the daemon): JSON matches the lab's device list and avahi-browse -rpkt" compare "$tmp/scan.json" mdns+avahi
check "default: scan.browses[] names both sources, the querier's all-for-now and the daemon's cache" "$PY" - "$tmp/scan.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["scan"]["browses"][0]
src = {s["source"]: s for s in b["sources"]}
assert set(src) == {"mdns", "avahi"}, b
assert src["mdns"]["role"] == "asks" and src["mdns"]["allForNowAfterSeconds"] <= b["settledAfterSeconds"], b
assert src["avahi"]["role"] == "cache" and src["avahi"]["cacheDeliveredAfterSeconds"] <= b["settledAfterSeconds"], b
assert b["settledBy"] == "allForNow", b
print(b)
PY
scan >"$tmp/header.txt" 2>&1
check "default: the header names both sources" grep -q "discovery backend: mdns+avahi (avahi-daemon answers on D-Bus: " "$tmp/header.txt"
scan --json --backend avahi >"$tmp/scan-avahi.json"; rc=$?
[ "$rc" = 0 ] && ok "cast-scan --backend avahi --json exits 0" || notok "cast-scan --backend avahi --json exits 0 (got $rc)"
check "--backend avahi: JSON matches the lab's device list and avahi-browse -rpkt" compare "$tmp/scan-avahi.json" avahi
scan --json --backend mdns >"$tmp/scan-mdns.json"; rc=$?
[ "$rc" = 0 ] && ok "cast-scan --backend mdns --json exits 0" || notok "cast-scan --backend mdns --json exits 0 (got $rc)"
check "--backend mdns: JSON matches the lab's device list and avahi-browse -rpkt" compare "$tmp/scan-mdns.json" mdns
scan --json --backend dnssd >"$tmp/scan-dnssd.json" 2>"$tmp/dnssd.err"; rc=$?
[ "$rc" = 0 ] && ok "cast-scan --backend dnssd --json exits 0" || notok "cast-scan --backend dnssd --json exits 0 (got $rc)"
check "--backend dnssd: JSON matches the lab's device list and avahi-browse -rpkt" compare "$tmp/scan-dnssd.json" dnssd
check "--backend dnssd: nothing from the compatibility library on stderr" bash -c '! [ -s "$1" ] || { cat "$1"; false; }' _ "$tmp/dnssd.err"

# A poll-driven backend whose loop fails (injected by the debug build's
# CAST_DISCOVERY_FAIL_POLL_AFTER_MS) ends a one-shot scan and a watch with 70 and the reason.
failing() {  # MS SUBSTRING ARGS...: exit 70, SUBSTRING on stderr
  local ms=$1 want=$2; shift 2
  "$castlab" exec env CAST_DISCOVERY_FAIL_POLL_AFTER_MS="$ms" timeout 20 "$bin" "$@" \
    >"$tmp/failing.out" 2>"$tmp/failing.err"
  local rc=$?
  [ "$rc" = 70 ] && grep -qF "cast-scan: $want" "$tmp/failing.err" || { echo "exit $rc"; cat "$tmp/failing.out" "$tmp/failing.err"; false; }
}
for backend in mdns dnssd; do
  what=$([ "$backend" = mdns ] && echo "the mDNS querier" || echo "the dns_sd session")
  check "--backend $backend: a poll failure ends a one-shot scan with 70 and says so" \
    failing 0 "$what stopped: poll failed" --state "$tmp/state-$RANDOM.json" --backend "$backend"
  check "--backend $backend: a poll failure ends a watch with 70 and says so" failing 1500 "$what stopped: poll failed" watch --jsonl --backend "$backend"
done

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

"$castlab" exec "$bin" doctor >"$tmp/doctor.txt" 2>&1; rc=$?
[ "$rc" = 0 ] && ok "doctor exits 0 with the daemon" || { notok "doctor exits 0 with the daemon (got $rc)"; sed 's/^/#   /' "$tmp/doctor.txt"; }
check "doctor: auto chooses the querier beside avahi, which can share port 5353" \
  bash -c 'grep -q "auto chooses mdns+avahi" "$1" && grep -q "^ok   mdns querier: port 5353 shared" "$1"' _ "$tmp/doctor.txt"
"$castlab" daemon stop >/dev/null 2>&1
"$castlab" exec "$bin" doctor >"$tmp/doctor.txt" 2>&1; rc=$?
[ "$rc" = 0 ] && ok "doctor exits 0 without the daemon (the querier works)" || { notok "doctor exits 0 without the daemon (got $rc)"; sed 's/^/#   /' "$tmp/doctor.txt"; }
check "doctor without the daemon: auto chooses mdns and says why" \
  bash -c 'grep -q "auto chooses mdns: .*avahi" "$1" && grep -q "^note avahi-daemon" "$1"' _ "$tmp/doctor.txt"
scan --backend avahi >"$tmp/nodaemon.txt" 2>&1; rc=$?
[ "$rc" = 69 ] && ok "no daemon, --backend avahi: exit 69" || notok "no daemon, --backend avahi: exit 69 (got $rc)"
check "no daemon, --backend avahi: the message says how to start it" grep -q "avahi-daemon is not running.*start it with" "$tmp/nodaemon.txt"
scan --backend dnssd >"$tmp/nodaemon-dnssd.txt" 2>&1; rc=$?
[ "$rc" = 69 ] && ok "no daemon, --backend dnssd: exit 69" || notok "no daemon, --backend dnssd: exit 69 (got $rc)"
check "no daemon, --backend dnssd: the message says how to start it, and nothing else" \
  bash -c 'grep -q "avahi-daemon is not running.*start it with" "$1" && ! grep -qi "warning" "$1"' _ "$tmp/nodaemon-dnssd.txt"
scan --json >"$tmp/nodaemon.json" 2>"$tmp/nodaemon.err"; rc=$?
[ "$rc" = 0 ] && ok "no daemon: a plain cast-scan exits 0" || notok "no daemon: a plain cast-scan exits 0 (got $rc)"
check "no daemon: a plain cast-scan lists every device, through the mDNS querier" compare "$tmp/nodaemon.json" mdns
check "no daemon: JSON says why the querier was chosen" \
  "$PY" -c 'import json,sys; s=json.load(open(sys.argv[1]))["scan"]; assert "avahi" in s["backendReason"], s' "$tmp/nodaemon.json"
scan >"$tmp/nodaemon.txt" 2>&1
check "no daemon: the header names the backend and the reason" grep -q "discovery backend: mdns" "$tmp/nodaemon.txt"
"$castlab" bus stop >/dev/null 2>&1
scan --json >"$tmp/nobus.json" 2>"$tmp/nobus.err"; rc=$?
[ "$rc" = 0 ] && ok "no D-Bus at all: a plain cast-scan exits 0" || notok "no D-Bus at all: a plain cast-scan exits 0 (got $rc)"
check "no D-Bus at all: a plain cast-scan lists every device" compare "$tmp/nobus.json" mdns
"$castlab" bus start >/dev/null 2>&1

# A watch runs in the background: ended on every exit, before the lab goes (`jobs -p`: this
# shell's children not yet waited for, so no PID that may have been reused).
test_cleanup() {
  local pid
  for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
}
watch_live() { # STATUS [ARGS]: a watch while the Chromecast's status text becomes STATUS
  local status=$1; shift
  "$castlab" exec "$bin" watch --jsonl "$@" >"$tmp/watch.jsonl" 2>"$tmp/watch.err" &
  local pid=$! i
  # The change once the watch has its list (scanCompleted and the 7 devices inserted), up to 20 s.
  for i in $(seq 200); do
    grep -q '"event":"scanCompleted"' "$tmp/watch.jsonl" 2>/dev/null &&
      [ "$(grep -c '"event":"inserted"' "$tmp/watch.jsonl")" -ge 7 ] && break
    sleep 0.1
  done
  "$castlab" set-txt "Chromecast-406c2bcdd5995755059b5bb045326056" rs="$status" st=1 >/dev/null
  # Through avahi-daemon the change shows 1.5-1.6 s later (the cache-flush second, then a
  # re-resolve): wait for it, up to 10 s, rather than a fixed time that load can overrun.
  for i in $(seq 100); do grep -q "\"statusText\":\"$status\"" "$tmp/watch.jsonl" 2>/dev/null && break; sleep 0.1; done
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
}
watched() { # STATUS
  "$PY" - "$tmp/watch.jsonl" "$1" <<'PY'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1])]
inserted = [e for e in events if e["event"] == "inserted"]
updated = [e for e in events if e["event"] in ("updated", "moved") and e["device"].get("statusText") == sys.argv[2]]
assert len(inserted) == 7, len(inserted)
assert updated, [e["event"] for e in events]
# Each device is inserted once and has its IPv4 and IPv6 addresses, IPv4 first, before the TXT
# change; before that change an update may only add the addresses of a copy that came after
# the merge's short wait for a device's copies (a loaded machine can delay one past it), never
# change anything else.
assert len({e["device"]["uniqueID"] for e in inserted}) == 7, [e["device"]["friendlyName"] for e in inserted]
first_change = events.index(updated[0])
state = {}
for e in events[:first_change]:
    if e["event"] not in ("inserted", "updated", "moved"):
        continue
    device, uid = e["device"], e["device"]["uniqueID"]
    if uid in state:
        before = state[uid]
        same = {k: v for k, v in device.items() if k != "addresses"} == {k: v for k, v in before.items() if k != "addresses"}
        added = all(a in device["addresses"] for a in before["addresses"]) and len(device["addresses"]) > len(before["addresses"])
        assert same and added, ("an update before the TXT change that is not a copy's addresses", device["friendlyName"])
    state[uid] = device
for device in state.values():
    families = [a["family"] for a in device["addresses"]]
    assert families[:1] == ["ipv4"] and "ipv6" in families, (device["friendlyName"], families)
PY
}
watch_live Netflix; rc=$?
[ "$rc" = 0 ] && ok "watch ends with exit 0 on SIGINT" || notok "watch ends with exit 0 on SIGINT (got $rc)"
check "watch --jsonl reports all 7 devices once, each with all its addresses, then the TXT change" watched Netflix
check "watch: the backendChosen line names both sources" grep -q '"detail":"backend mdns+avahi: ' "$tmp/watch.jsonl"
watch_live Hulu --backend mdns; rc=$?
[ "$rc" = 0 ] && ok "watch --backend mdns ends with exit 0 on SIGINT" || notok "watch --backend mdns ends with exit 0 on SIGINT (got $rc)"
check "watch --backend mdns: all 7 devices once, each with all its addresses, then the TXT change" watched Hulu
watch_live Disney --backend dnssd; rc=$?
[ "$rc" = 0 ] && ok "watch --backend dnssd ends with exit 0 on SIGINT" || notok "watch --backend dnssd ends with exit 0 on SIGINT (got $rc)"
check "watch --backend dnssd: all 7 devices once, each with all its addresses, then the TXT change" watched Disney
check "watch --backend dnssd: nothing from the compatibility library on stderr" bash -c '! [ -s "$1" ] || { cat "$1"; false; }' _ "$tmp/watch.err"
done_testing
