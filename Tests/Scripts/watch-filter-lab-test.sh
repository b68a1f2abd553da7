#!/usr/bin/env bash
# watch-filter-lab-test.sh: `--interface`, `-4` and `-6` against the indices of `watch --jsonl`.
# A client that keeps its copy of the list from the indices alone (Tests/Scripts/
# rebuild-from-indices.py: insert at index, replace at index, move from index to toIndex, remove
# at index; an index out of range or a device at an index that is not the one the line names
# fails) must end with the list a `cast-scan --json` with the same backend and filters gives
# right after: the same uniqueIDs in the same order, the same addresses. For each backend
# (avahi, mdns, dnssd, and hosts asking the Nest Mini's host) and each filter (none, -4, -6,
# --interface lab0, --interface lab1 with the second sender interface up), five watches run at
# once; once each has said scanCompleted and its list (rebuilt from its lines so far) holds the
# devices it should, the unfiltered watch's filtered, two devices change their TXT (the Cyrillic
# speaker, which sorts after the IPv6-only Study, so a -4 index of the unfiltered list is one too
# far, and the Nest Mini, which the hosts backend asks); once every watch shows the change and
# the lists agree again, each watch gets SIGTERM. Also: every
# address listed obeys the filter, and the lists hold the devices the lab says they should
# (--interface lab1 through avahi-daemon, which the lab binds to lab0, and --interface through
# the hosts backend, whose answers have no interface, give empty lists).
# Fixture: Fixtures/lab/stacks.json (10 devices: python-zeroconf, avahi-daemon, one IPv6 only).
# Needs root. A lab that cannot start is a failure, never a skip. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" watch-filter-lab-test
rebuild=$here/Tests/Scripts/rebuild-from-indices.py
# The watches run in the background: ended on every exit, before the lab goes.
# (`jobs -p`: this shell's children not yet waited for, so no PID that may have been reused.)
test_cleanup() {
  local pid
  for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
}
t0=$SECONDS
build_cast_scan
lab_up "$here/Fixtures/lab/stacks.json"
if "$castlab" link add >"$tmp/link" 2>&1; then ok "the second sender interface lab1 is up"
else notok "the second sender interface lab1 is up"; diag <"$tmp/link"; fi
"$castlab" status --json >"$tmp/lab.json"

# From the lab's own list: how many devices, how many with IPv4, the Nest Mini's host (asked by
# the hosts backend, by its IPv4 address, or its IPv6 one with -6) and how many services it
# publishes; the two devices whose TXT changes.
read -r all with4 host4 host6 onhost mini < <("$PY" - "$tmp/lab.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["devices"]
mini = next(x for x in d if x["instance"].startswith("Google-Nest-Mini-"))
print(len(d), sum(1 for x in d if x["ipv4"]), mini["ipv4"], mini["ipv6"],
      sum(1 for x in d if x["host"] == mini["host"]), mini["instance"])
PY
)
speaker="Стас: Колонка"

filters=(none -4 -6 lab0 lab1)
filter_args() { case $1 in none) ;; -4|-6) echo "$1" ;; *) echo "--interface $1" ;; esac; }
check_args() { case $1 in none) ;; -4) echo "--family ipv4" ;; -6) echo "--family ipv6" ;; *) echo "--interface $1" ;; esac; }
backend_args() { # BACKEND FILTER
  case $1:$2 in
    hosts:-6) echo "--backend hosts --host $host6 --host-interval 1" ;;
    hosts:*) echo "--backend hosts --host $host4 --host-interval 1" ;;
    *) echo "--backend $1" ;;
  esac
}
expected() { # BACKEND FILTER: how many devices the filtered list must hold
  case $1:$2 in
    hosts:lab0|hosts:lab1) echo 0 ;;  # host answers have no interface
    hosts:*) echo "$onhost" ;;
    avahi:lab1|dnssd:lab1) echo 0 ;;  # the lab's avahi-daemon is bound to lab0
    *:-4) echo "$with4" ;;            # all but the IPv6-only Study
    *) echo "$all" ;;
  esac
}
has() { grep -q "\"event\":\"$2\"" "$1" 2>/dev/null; }
# settled BACKEND WHAT: waits (at most 20 s) until each running watch's list, rebuilt from the
# lines it has written so far, holds the devices it should and (filtered) is the unfiltered
# watch's list filtered; says which did not.
settled() {
  local backend=$1 what=$2 f i want like good
  for f in "${filters[@]}"; do
    want=$(expected "$backend" "$f") good=0
    like=(); [ "$f" = none ] || like=(--like "$tmp/${backend}none.jsonl")
    for i in $(seq 200); do
      # shellcheck disable=SC2046
      "$PY" "$rebuild" "$tmp/$backend$f.jsonl" --live "${like[@]}" --count "$want" $(check_args "$f") \
        >"$tmp/settled" 2>&1 && { good=1; break; }
      sleep 0.1
    done
    [ "$good" = 1 ] || { notok "--backend $backend, filter $f: the watch $what within 20 s"; diag <"$tmp/settled"; }
  done
}

round=0
for backend in avahi mdns dnssd hosts; do
  round=$((round + 1))
  declare -A pids=()
  for f in "${filters[@]}"; do
    # shellcheck disable=SC2046
    "$castlab" exec "$bin" watch --jsonl $(backend_args "$backend" "$f") $(filter_args "$f") \
      >"$tmp/$backend$f.jsonl" 2>"$tmp/$backend$f.err" &
    pids[$f]=$!
  done
  # Each watch has its list (scanCompleted) and a query round more for the copies on the other
  # interface and family; then the TXT changes, and a moment for them to arrive.
  for i in $(seq 200); do
    all_done=1; for f in "${filters[@]}"; do has "$tmp/$backend$f.jsonl" scanCompleted || all_done=0; done
    [ "$all_done" = 1 ] && break; sleep 0.1
  done
  for f in "${filters[@]}"; do
    has "$tmp/$backend$f.jsonl" scanCompleted || notok "--backend $backend, filter $f: the watch says scanCompleted within 20 s"
  done
  # Then each watch's list, rebuilt from its lines so far, holds what the lab says it should and
  # is the unfiltered watch's, filtered: the copies on the other interface and family come a
  # query round after scanCompleted, and later still on a busy machine.
  settled "$backend" "holds its devices before the TXT changes"
  status="Filter$round"
  "$castlab" set-txt "$speaker" rs="$status" st=1 >/dev/null
  "$castlab" set-txt "$mini" rs="$status" st=1 >/dev/null
  # Through avahi-daemon a TXT change shows about 1.6 s later; wait for it in the unfiltered watch.
  for i in $(seq 100); do grep -q "\"statusText\":\"$status\"" "$tmp/${backend}none.jsonl" && break; sleep 0.1; done
  grep -q "\"statusText\":\"$status\"" "$tmp/${backend}none.jsonl" ||
    notok "--backend $backend: the unfiltered watch shows the TXT change within 10 s"
  # Every watch that lists the two devices shows the change, and the lists agree again.
  for f in "${filters[@]}"; do
    [ "$(expected "$backend" "$f")" = 0 ] && continue
    for i in $(seq 100); do grep -q "\"statusText\":\"$status\"" "$tmp/$backend$f.jsonl" && break; sleep 0.1; done
    grep -q "\"statusText\":\"$status\"" "$tmp/$backend$f.jsonl" ||
      notok "--backend $backend, filter $f: the watch shows the TXT change within 10 s"
  done
  settled "$backend" "holds its devices after the TXT change"
  for f in "${filters[@]}"; do kill -TERM "${pids[$f]}" 2>/dev/null; done
  bad=0
  for f in "${filters[@]}"; do
    wait "${pids[$f]}"; rc=$?
    [ "$rc" = 0 ] || { bad=1; notok "--backend $backend, filter $f: the watch exits 0 on SIGTERM (got $rc)"; diag <"$tmp/$backend$f.err"; }
  done
  [ "$bad" = 1 ] || ok "--backend $backend: the ${#filters[@]} watches exit 0 on SIGTERM"
  unset pids
  # Right after, one scan per filter, one at a time: queriers side by side on port 5353 share
  # the unicast answers, and a short scan can miss one that way.
  for f in "${filters[@]}"; do
    # shellcheck disable=SC2046
    "$castlab" exec "$bin" --json --state "$tmp/state.json" $(backend_args "$backend" "$f") $(filter_args "$f") \
      >"$tmp/$backend$f.json" 2>"$tmp/$backend$f.scan.err"; rc=$?
    [ "$rc" = 0 ] || { notok "--backend $backend, filter $f: cast-scan --json exits 0 (got $rc)"; diag <"$tmp/$backend$f.scan.err"; }
  done
  # The mDNS querier's one-shot scan ends when every browse said all-for-now, about 0.15 s in.
  # With lab0 and lab1 on one link the devices' ARP entry for lab0's 10.213.0.1 is lab1's MAC
  # (ARP flux: arp_ignore=0 in castlab-sender), so the unicast answers to lab0's IPv4 queries
  # arrive on lab1, and such a scan often lists a device without its IPv4 copy on lab0, which
  # the watch shows a query round later (multicast). Not a filter matter: through mdns the
  # scan's addresses need only be among the copy's (what it lacks is a note), and for every
  # backend the addresses are held exactly to the unfiltered watch's copy, filtered (--like).
  scan_addresses=exact; [ "$backend" = mdns ] && scan_addresses=subset
  for f in "${filters[@]}"; do
    want=$(expected "$backend" "$f")
    like=(); [ "$f" = none ] || like=(--like "$tmp/${backend}none.jsonl")
    what="--backend $backend, filter $f: the list rebuilt from the watch's indices is the scan's and the unfiltered watch's, filtered ($want devices); every address obeys the filter"
    # shellcheck disable=SC2046
    if "$PY" "$rebuild" "$tmp/$backend$f.jsonl" --scan "$tmp/$backend$f.json" --scan-addresses "$scan_addresses" \
      "${like[@]}" --count "$want" $(check_args "$f") >"$tmp/out" 2>&1
    then ok "$what"; grep '^note:' "$tmp/out" | diag; else notok "$what"; diag <"$tmp/out"; fi
  done
done
echo "# $((SECONDS - t0)) s" >&2
done_testing
