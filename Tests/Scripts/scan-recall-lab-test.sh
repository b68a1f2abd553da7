#!/usr/bin/env bash
# scan-recall-lab-test.sh: one-shot scans that must never miss a device, in the cases where a
# completion heuristic could guess wrong. The lab (Fixtures/lab/partial-subtype.json) has two
# devices that run app 5C3F0A9E: "Announcer" announces its subtype records, "Quiet one" only
# answers when asked. Each scenario runs RUNS times (default 20) and fails on a single missed
# device (one, below, on more than its bound); each also checks that every run's scan used the
# backend it names:
#   - partial cache, warm daemon: the daemon holds Announcer's subtype answer (heard from its
#     announcement) and both base records (a plain scan ran just before), not Quiet one's;
#   - partial cache, cold daemon: the same, right after the daemon started;
#   - base type learned first: a plain scan ran, the subtype was never asked for;
#   - the default backend (the querier beside avahi-daemon) in the three cache scenarios above;
#   - 20% packet loss on the lab bridge (castlab loss), through the default, avahi-daemon and
#     the querier; through avahi-daemon alone a lossy network can hide a device from a one-shot
#     scan (docs/backends.md), so that scenario holds a bound instead: at most MISS_BOUND runs
#     (default 7 of 20, scaled with RUNS) may miss a device;
#   - the built-in mDNS querier (--backend mdns): Quiet one is only found by asking;
#   - dns_sd (--backend dnssd), which has no all-for-now of its own, after a partial cache and
#     cold: its browse settles on its own timer (a second, then 250 ms without news).
# Arguments: the parts to run (default: all, in this order), each a group of the scenarios above:
#   default (the default backend's three cache scenarios), avahi (the same through avahi-daemon),
#   loss (20% packet loss), querier (the mDNS querier and dns_sd), many (50 devices through the
#   default, avahi-daemon and the querier), many-dnssd (50 devices through dns_sd).
# Parts run in separate invocations side by side when each has a lab of its own (CASTLAB_NAME).
# Needs root. A lab that cannot start is a failure, never a skip. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" scan-recall-lab-test
RUNS=${RUNS:-20}
# The most runs of the avahi-daemon-under-loss scenario that may miss a device. Measured: 8 of
# 100 runs (Benchmarks/results/2026-12-06-recall-loss.txt), so about 1 in 10. At that rate a
# bound of 7 of 20 fails a correct run about once in 2,400 (3 of 20 would fail one in 8; 7 of
# 20 fails one in 170 were the rate 3 in 20), while a backend that misses in half the runs
# fails 87% of the time, and one that always misses, always.
loss_bound=${MISS_BOUND:-$(( (RUNS * 7 + 19) / 20 ))}
[[ "$loss_bound" =~ ^[0-9]+$ ]] || bail_out "MISS_BOUND must be a whole number of runs, got '$loss_bound'"
APP=5C3F0A9E
ANNOUNCER=Chromecast-a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1
all_parts=(default avahi loss querier many many-dnssd)
parts=("$@"); [ $# -gt 0 ] || parts=("${all_parts[@]}")
for part in "${parts[@]}"; do
  [[ " ${all_parts[*]} " == *" $part "* ]] || bail_out "no part '$part' (parts: ${all_parts[*]})"
done
want() { [[ " ${parts[*]} " == *" $1 "* ]]; }
build_cast_scan
if want default || want avahi || want loss || want querier; then
  lab_up "$here/Fixtures/lab/partial-subtype.json"
fi
# The time-out bounds a scan, it is not what is tested: a scan must end complete (its browses
# settled, not stopped by the time-out) with every device. 5 s for the two-device lab; the
# 50-device scans set more (many below), since beside other suites a daemon that has just
# started can take longer than 5 s to resolve 50 devices.
scan_timeout=5
scan() { "$castlab" exec "$bin" --state "$tmp/state.json" --timeout "$scan_timeout" "$@"; }

restart_daemon() { "$castlab" daemon restart >/dev/null 2>&1; }
# Announcer announces again (its subtype records included), so the daemon caches that answer.
announce() { "$castlab" set-txt "$ANNOUNCER" rs= >/dev/null 2>&1 && sleep 0.2; }

# check_scan JSON: the backend the scan used; then, when both devices are listed and the scan
# is complete, the subtype browse's settling time and how it settled, and its cache count.
check_scan() {
  "$PY" - "$1" "$APP" <<'PY'
import json, sys
try:
    scan = json.load(open(sys.argv[1]))
except ValueError as error:
    print("none"); print("no scan:", error); sys.exit(1)
print(scan["scan"].get("backend"))
names = sorted(d["friendlyName"] for d in scan["devices"])
if names != ["Announcer", "Quiet one"]:
    print("listed", names); sys.exit(1)
if not scan["scan"]["complete"]:
    print("incomplete", scan["scan"]); sys.exit(1)
sub = next(b for b in scan["scan"]["browses"] if sys.argv[2] in b["browseType"])
print(sub["settledAfterSeconds"], sub["settledBy"], sub.get("servicesFromCache"))
PY
}

# scenario NAME CACHED PREPARE...: RUNS scans of --app-id APP, each after PREPARE, through
# $backend (the backend the scan must report: BACKEND_ARGS choose it); all must list both, or
# at most $miss_bound of them miss one. CACHED: how many of the two the subtype browse must have
# had from the daemon's cache, so the scenario really is the one it names.
scenario() {
  local name=$1 cached=$2 bound=${miss_bound:-0} run misses=0 as_named=0 times=() out used others=() status
  shift 2
  for run in $(seq "$RUNS"); do
    "$@"
    scan --json --app-id "$APP" "${backend_args[@]}" >"$tmp/scan.json" 2>"$tmp/scan.err"
    out=$(check_scan "$tmp/scan.json" 2>&1); status=$?
    used=${out%%$'\n'*} out=${out#*$'\n'}
    [ "$used" = "$backend" ] || others+=("run $run: $used")
    if [ "$status" = 0 ]; then
      times+=("${out%% *}")
      [ "${out##* }" = "$cached" ] && as_named=$((as_named + 1))
    else
      misses=$((misses + 1))
      echo "#   run $run: $out" >&2
    fi
  done
  if [ ${#others[@]} = 0 ]; then
    ok "$name: every scan used $backend"
  else
    notok "$name: scans used another backend than $backend (${others[*]})"
  fi
  if [ "$misses" = 0 ]; then
    ok "$name: both devices in all $RUNS runs (subtype browse settled after ${times[*]} s)"
  elif [ "$misses" -le "$bound" ]; then
    ok "$name: a device was missed in $misses of $RUNS runs, within the bound of $bound (docs/backends.md, \"Scan completion\")"
  else
    notok "$name: a device was missed in $misses of $RUNS runs${miss_bound:+, beyond the bound of $bound}"
  fi
  # The scenario must really be the one it names, or it tests nothing: in at least half the
  # runs (a quarter through the default backend, whose querier asks the network as the scan
  # starts: the answers its questions bring are heard by the daemon too, and may reach its
  # browse as cached before the daemon has said so: 9 of 20 was seen).
  [ "$cached" = - ] && return 0
  local needed=$((RUNS / 2))
  [ "$backend" = mdns+avahi ] && needed=$((RUNS / 4))
  [ "$as_named" -ge "$needed" ] \
    && ok "$name: the daemon's cache held $cached of the 2 answers, the rest came from the network ($as_named of $RUNS runs)" \
    || notok "$name: the daemon's cache held $cached of the 2 answers in only $as_named of $RUNS runs (at least $needed wanted)"
}

warm_partial() { restart_daemon; announce; scan --json >/dev/null 2>&1; }
cold_partial() { restart_daemon; announce; }
base_first() { restart_daemon; scan --json >/dev/null 2>&1; }

# The default: the querier asks while the daemon's cache answers at once (mdns+avahi). Its
# browse settles on the querier's all-for-now once the daemon's cache is in; the cache counts
# are the daemon's own (scan.browses[].sources[]).
if want default; then
  backend_args=() backend=mdns+avahi
  scenario "default, partial cache, warm daemon" 1 warm_partial
  scenario "default, partial cache, cold daemon" 1 cold_partial
  scenario "default, base type learned first, subtype never asked" 0 base_first
fi

if want avahi; then
  backend_args=(--backend avahi) backend=avahi
  scenario "partial cache, warm daemon" 1 warm_partial
  scenario "partial cache, cold daemon" 1 cold_partial
  scenario "base type learned first, subtype never asked" 0 base_first
fi

# Packet loss: 20% of the UDP packets towards the sender dropped on the bridge (nftables).
if ! want loss; then
  :
elif "$castlab" loss 20 >"$tmp/loss.err" 2>&1; then
  # Through avahi-daemon a one-shot scan ends at avahi's all-for-now, a second after the browse;
  # avahi asks again only later, so a lost answer is a missed device. A known limit
  # (docs/backends.md, "Scan completion"), held to its bound ($loss_bound runs).
  backend_args=(--backend avahi) backend=avahi
  miss_bound=$loss_bound scenario "20% packet loss through avahi-daemon" 0 base_first
  backend_args=() backend=mdns+avahi
  scenario "default, 20% packet loss" 0 base_first
  backend_args=(--backend mdns) backend=mdns
  scenario "mDNS querier, 20% packet loss" - true
  "$castlab" loss 0 >/dev/null 2>&1
else
  notok "castlab loss 20: $(head -c 300 "$tmp/loss.err" | tr '\n' ' ')"
fi

if want querier; then
  backend_args=(--backend mdns) backend=mdns
  scenario "mDNS querier (the quiet device answers only when asked)" - true
  backend_args=(--backend dnssd) backend=dnssd
  scenario "dns_sd, partial cache, cold daemon" - cold_partial
fi
want many || want many-dnssd || done_testing

# ---------------------------------------------------------------- 50 devices, cold daemon
# Every backend's scan of 50 devices right after the daemon started: resolves finish close
# together, and the last first reports may still be held by a backend (waiting briefly for a
# device's other copies) when the last resolve ends. A scan that ended then missed them
# (dns_sd: 1 to 4 of 50 in each of 5 benchmark runs, before held reports counted as pending).
if [ "$started" = 1 ]; then "$castlab" down >/dev/null 2>&1; started=0; fi
lab_up --devices 50
scan_timeout=30
many() { # NAME PREPARE BACKEND USED: RUNS scans with --backend BACKEND, each after PREPARE, must
  # list all 50, complete, through USED (the backend the scan reports)
  local name=$1 prepare=$2 backend=$3 used=$4 run misses=0 out slowest=0
  for run in $(seq "$RUNS"); do
    "$prepare"
    scan --json --backend "$backend" >"$tmp/scan50.json" 2>"$tmp/scan50.err"
    if out=$("$PY" - "$tmp/scan50.json" "$used" 2>&1 <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
n, complete, used = len(s["devices"]), s["scan"]["complete"], s["scan"].get("backend")
assert used == sys.argv[2], "the scan used %s, not %s" % (used, sys.argv[2])
assert n == 50 and complete, "%d of 50 listed, complete: %s" % (n, complete)
print(s["scan"]["elapsedSeconds"])
PY
); then
      slowest=$("$PY" -c 'import sys; print(max(float(sys.argv[1]), float(sys.argv[2])))' "$slowest" "$out")
    else
      misses=$((misses + 1))
      echo "#   run $run: $(echo "$out" | tail -1)" >&2
    fi
  done
  [ "$misses" = 0 ] && ok "$name: all 50 devices in all $RUNS runs through $used (the slowest complete in $slowest s)" ||
    notok "$name: devices missed in $misses of $RUNS runs"
}
if want many; then
  many "default, cold daemon, 50 devices" restart_daemon auto mdns+avahi
  many "avahi-daemon, cold, 50 devices" restart_daemon avahi avahi
fi
want many-dnssd && many "dns_sd, cold, 50 devices" restart_daemon dnssd dnssd
want many && many "mDNS querier, 50 devices" true mdns mdns
done_testing
