#!/usr/bin/env bash
# soak-test.sh: a `cast-scan watch --jsonl --report` over a replay of devices that churn (40
# changes a second, Scripts/soak/churn-replay.py), delivering to a collector on loopback
# (Tests/Scripts/report-collector.py). Passes when the watch ends by itself with 0, every
# device event it printed reached the collector exactly once and nothing else did (compared
# event by event, each under an id of its own), and its resident memory, open descriptors and
# threads stay flat: the median of the second half of the run is at most the most of the first
# half (after a 10 s warm-up) plus a small allowance.
# SOAK_SECONDS: how long the devices churn (60 in make test; e.g. 1800 for a long soak).
# SWIFT_SCRATCH: the build folder, if not .build; CAST_SCAN_BIN_DIR: the bin directory of a
# finished build (make test builds once, before the suites), else it builds here. Only loopback is used; no lab, no root needed.
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/tap-lib.sh" soak-test
seconds=${SOAK_SECONDS:-60}
case "$seconds" in ''|*[!0-9]*) bail_out "SOAK_SECONDS must be a whole number of seconds";; esac
[ "$seconds" -ge 20 ] || bail_out "SOAK_SECONDS must be at least 20"
scratch=(); [ -n "${SWIFT_SCRATCH:-}" ] && scratch=(--scratch-path "$SWIFT_SCRATCH")
collector_pid="" watch_pid=""
test_cleanup() {
  [ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null
  [ -n "$collector_pid" ] && kill "$collector_pid" 2>/dev/null
  wait 2>/dev/null
}

cd "$here"
if [ -n "${CAST_SCAN_BIN_DIR:-}" ]; then
  bin=$CAST_SCAN_BIN_DIR/cast-scan
  [ -x "$bin" ] || bail_out "CAST_SCAN_BIN_DIR holds no cast-scan ($bin)"
else
  if ! swift build "${scratch[@]}" >"$tmp/build.log" 2>&1; then
    cat "$tmp/build.log" >&2; bail_out "cast-scan does not build"
  fi
  bin=$(swift build "${scratch[@]}" --show-bin-path)/cast-scan
fi
python3 Scripts/soak/churn-replay.py --seconds "$seconds" --devices 50 --rate 40 >"$tmp/replay.json" \
  || bail_out "the churn replay could not be written"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo accept >"$tmp/mode"
python3 Tests/Scripts/report-collector.py --port "$port" --log "$tmp/received.jsonl" --mode-file "$tmp/mode" \
  >"$tmp/collector.out" 2>&1 &
collector_pid=$!
for _ in $(seq 50); do grep -q listening "$tmp/collector.out" 2>/dev/null && break; sleep 0.1; done
grep -q listening "$tmp/collector.out" || bail_out "the collector did not start"

"$bin" watch --jsonl --replay "$tmp/replay.json" --report "http://127.0.0.1:$port/events" \
  --spool "$tmp/spool" >"$tmp/watch.jsonl" 2>"$tmp/watch.err" &
watch_pid=$!
: >"$tmp/samples"
while kill -0 "$watch_pid" 2>/dev/null; do
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$watch_pid/status" 2>/dev/null)
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$watch_pid/status" 2>/dev/null)
  fds=$(ls "/proc/$watch_pid/fd" 2>/dev/null | wc -l)
  [ -n "$rss" ] && echo "$SECONDS $rss $fds $threads" >>"$tmp/samples"
  sleep 2
done
wait "$watch_pid"; status=$?; watch_pid=""
[ "$status" = 0 ] && ok "the watch ended with the replay, exit 0" || { notok "the watch ended with $status"; sed 's/^/#   /' "$tmp/watch.err" | head -20; }

# Which events arrived, not only how many: each printed device event must be received exactly
# once (the received event is the printed line with its report id first), under an id of its own.
python3 - "$tmp/watch.jsonl" "$tmp/received.jsonl" <<'PY' && ok "every printed device event reached the collector once, and nothing else did" || notok "events lost, duplicated or changed"
import collections, json, sys
def key(event): return json.dumps(event, sort_keys=True)
printed = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sent = collections.Counter(key(p) for p in printed if p.get("event") in ("inserted", "updated", "moved", "removed"))
received = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
ids = [r.pop("id", None) for r in received]
arrived = collections.Counter(key(r) for r in received)
missing, extra = sent - arrived, arrived - sent
repeated = [i for i, n in collections.Counter(ids).items() if n > 1]
print(f"#   printed {sum(sent.values())} device events; the collector got {len(received)}: "
      f"{sum(missing.values())} missing, {sum(extra.values())} not printed, {ids.count(None)} without an id, "
      f"{len(repeated)} ids twice")
for what, events in (("missing", missing), ("not printed", extra)):
    for event in list(events)[:3]: print(f"#   {what}: {event[:300]}")
sys.exit(0 if sent and not missing and not extra and None not in ids and not repeated else 1)
PY

python3 - "$tmp/samples" <<'PY' && ok "memory, descriptors and threads flat" || notok "resources grew"
import sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if len(l.split()) == 4]
start = rows[0][0] if rows else 0
rows = [r for r in rows if r[0] - start >= 10]
if len(rows) < 4:
    print("#   too few samples"); sys.exit(1)
half = len(rows) // 2
first, second = rows[:half], rows[half:]
def most(rs, i): return max(r[i] for r in rs)
def median(rs, i): return sorted(r[i] for r in rs)[len(rs) // 2]
# The second half's median against the first half's most: a sample may catch a descriptor or
# thread that lives a moment (the spool's periodic check opens the file, its log and index on a
# second connection: 3 descriptors), a leak moves the median.
rss1, rss2 = most(first, 1), median(second, 1)
fd1, fd2 = most(first, 2), median(second, 2)
th1, th2 = most(first, 3), median(second, 3)
print(f"#   first half's most -> second half's median: RSS {rss1} -> {rss2} KiB, descriptors {fd1} -> {fd2}, "
      f"threads {th1} -> {th2} ({len(rows)} samples; second half's most: {most(second, 1)} KiB, {most(second, 2)}, {most(second, 3)})")
ok = rss2 <= rss1 + max(4096, rss1 // 10) and fd2 <= fd1 + 2 and th2 <= th1 + 2
sys.exit(0 if ok else 1)
PY
done_testing
