#!/usr/bin/env bash
# report-lab-test.sh: cast-scan watch --report and report send against a real HTTP collector
# (Tests/Scripts/report-collector.py, on the sender namespace's loopback), with the lab's
# devices found over real multicast:
#  - refused, then delivered: the collector answers 503 while a watch records every device,
#    the watch is killed with SIGKILL, the collector starts accepting, and `report send`
#    delivers every stored event (each device's insert arrives, nothing is left pending);
#  - the collector restarts during a watch: every event the watch printed arrives, none more
#    than twice, and nothing is left pending;
#  - a full spool: past --spool-max-events the oldest go, and `report status` counts them.
# Needs root. A lab that cannot start is a failure, never a skip. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" report-lab-test
collector="" watcher=""
test_cleanup() {
  [ -z "$watcher" ] || kill -KILL "$watcher" 2>/dev/null
  [ -z "$collector" ] || kill -TERM "$collector" 2>/dev/null
}
build_cast_scan
lab_up "$here/Fixtures/lab/real-world.json"
port=18080
url="http://127.0.0.1:$port/events"

start_collector() {
  "$castlab" exec "$PY" "$here/Tests/Scripts/report-collector.py" --port "$port" \
    --log "$tmp/got.jsonl" --mode-file "$tmp/mode" >"$tmp/collector.out" 2>&1 &
  collector=$!
  for _ in $(seq 100); do grep -q listening "$tmp/collector.out" 2>/dev/null && return 0; sleep 0.1; done
  diag <"$tmp/collector.out"; bail_out "the collector starts"
}
stop_collector() { kill -TERM "$collector" 2>/dev/null; wait "$collector" 2>/dev/null; collector=""; }

# wait_for SECONDS PYTHON-EXPRESSION: polls until the expression (over `events`, the
# collector's log, and `watch`, the watch's device lines) is true.
wait_for() {
  local seconds=$1 expression=$2
  for _ in $(seq $((seconds * 5))); do
    check "$expression" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}
check() {
  "$PY" - "$tmp/got.jsonl" "$tmp/watch.jsonl" "$tmp/expected" "$1" <<'PY'
import json, sys
def lines(path):
    try:
        return [json.loads(l) for l in open(path) if l.strip()]
    except OSError:
        return []
events = [e for e in lines(sys.argv[1]) if "id" in e]
refused = sum(e.get("refused", 0) for e in lines(sys.argv[1]))
watch = [w for w in lines(sys.argv[2]) if w.get("event") in ("inserted", "updated", "moved", "removed")]
expected = set(open(sys.argv[3]).read().split())
key = lambda e: (e["time"], e["event"], e["device"]["uniqueID"])
inserted = {e["device"]["uniqueID"] for e in events if e["event"] == "inserted"}
watched = {w["device"]["uniqueID"] for w in watch if w["event"] == "inserted"}
result = eval(sys.argv[4])
print(result)
sys.exit(0 if result else 1)
PY
}
status_json() { "$castlab" exec "$bin" report status --spool "$1" --json; }

# The devices a one-shot scan lists: what each watch must insert.
"$castlab" exec "$bin" --json --state "$tmp/state.json" >"$tmp/scan.json" 2>"$tmp/scan.err" ||
  { notok "the reference scan"; diag <"$tmp/scan.err"; }
"$PY" -c 'import json,sys; print("\n".join(d["uniqueID"] for d in json.load(open(sys.argv[1]))["devices"]))' \
  "$tmp/scan.json" >"$tmp/expected"
echo "# the lab lists $(wc -l <"$tmp/expected") devices" >&2

# --- Refused, then delivered after kill -9.
echo refuse >"$tmp/mode"; : >"$tmp/got.jsonl"
start_collector
"$castlab" exec "$bin" watch --jsonl --report "$url" --spool "$tmp/spool-a" --report-retry-max 0.5 \
  >"$tmp/watch.jsonl" 2>"$tmp/watch.err" &
watcher=$!
if wait_for 30 'watched == expected and refused > 0'; then
  ok "a watch refused by the collector (503) lists every device and keeps trying"
else
  notok "a refused watch: $(check 'f"{len(watched)} of {len(expected)} inserted, {refused} refused"' 2>&1)"; diag <"$tmp/watch.err"
fi
kill -KILL "$watcher"; wait "$watcher" 2>/dev/null; watcher=""
pending=$(status_json "$tmp/spool-a" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["pending"])')
stored=$(check 'len(watch)' 2>/dev/null)
if [ "$pending" = "$stored" ]; then
  ok "after kill -9 the spool holds every device event the watch printed ($pending)"
else
  notok "after kill -9: $pending pending, the watch printed $stored device events"
fi
echo accept >"$tmp/mode"
"$castlab" exec "$bin" report send --report "$url" --spool "$tmp/spool-a" >"$tmp/send.out" 2>&1; rc=$?
if [ "$rc" = 0 ] && check 'inserted == expected and len(events) == len(watch) and len({e["id"] for e in events}) == len(events) and {key(e) for e in events} == {key(w) for w in watch}' >/dev/null; then
  ok "report send delivers every stored event once, each device's insert among them (exit 0: $(cat "$tmp/send.out"))"
else
  notok "report send (exit $rc): $(check 'f"{len(events)} delivered of {len(watch)}, inserts {len(inserted)} of {len(expected)}"' 2>&1)"; diag <"$tmp/send.out"
fi
if [ "$(status_json "$tmp/spool-a" | "$PY" -c 'import json,sys; s=json.load(sys.stdin); print(s["pending"], s["lastSend"]["failed"])')" = "0 0" ]; then
  ok "report status: nothing pending, the last send failed none"
else
  notok "report status after the send"; status_json "$tmp/spool-a" | diag
fi

# --- The collector restarts during a watch.
: >"$tmp/got.jsonl"; : >"$tmp/watch.jsonl"
"$castlab" exec "$bin" watch --jsonl --report "$url" --spool "$tmp/spool-b" --report-retry-max 0.5 \
  >"$tmp/watch.jsonl" 2>"$tmp/watch.err" &
watcher=$!
if ! wait_for 30 'inserted == expected'; then
  notok "a watch delivers every device's insert: $(check 'f"{len(inserted)} of {len(expected)}"' 2>&1)"; diag <"$tmp/watch.err"
fi
stop_collector
target=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["devices"][0]["instance"])' <("$castlab" status --json))
"$castlab" set-txt "$target" "rs=Report Test" st=1 >/dev/null
if ! wait_for 20 'any(w["event"] in ("updated", "moved") for w in watch)'; then notok "the watch sees the change made while the collector is down"; fi
start_collector
if wait_for 30 '{key(w) for w in watch} <= {key(e) for e in events}'; then
  ok "the collector restarted during the watch: every event the watch printed arrives"
else
  notok "after the collector restart: $(check 'f"{len({key(w) for w in watch} - {key(e) for e in events})} of {len(watch)} events missing"' 2>&1)"
fi
if check 'max([sum(1 for e in events if e["id"] == i) for i in {e["id"] for e in events}] or [0]) <= 2' >/dev/null; then
  ok "no event arrives more than twice ($(check 'str(len(events)) + " received, " + str(len({e["id"] for e in events})) + " distinct"' 2>/dev/null))"
else
  notok "an event arrived more than twice"
fi
kill -INT "$watcher"; wait "$watcher" 2>/dev/null; watcher=""
if [ "$(status_json "$tmp/spool-b" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["pending"])')" = 0 ]; then
  ok "nothing is left pending after the restart"
else
  notok "events left pending after the restart"; status_json "$tmp/spool-b" | diag
fi

# --- A full spool: the collector refuses, the spool keeps 3.
echo refuse >"$tmp/mode"; : >"$tmp/watch.jsonl"
"$castlab" exec "$bin" watch --jsonl --report "$url" --spool "$tmp/spool-c" --spool-max-events 3 \
  >"$tmp/watch.jsonl" 2>"$tmp/watch.err" &
watcher=$!
wait_for 30 'watched == expected' || notok "the full-spool watch lists every device"
kill -INT "$watcher"; wait "$watcher" 2>/dev/null; watcher=""
printed=$(check 'len(watch)' 2>/dev/null)
if status_json "$tmp/spool-c" | "$PY" -c 'import json,sys
s = json.load(sys.stdin); printed = int(sys.argv[1])
assert s["pending"] == 3 and s["dropped"] == printed - 3, s' "$printed" && grep -q "dropped" "$tmp/watch.err"; then
  ok "a full spool keeps the newest 3 of $printed events and counts the $((printed - 3)) dropped (said on stderr too)"
else
  notok "a full spool"; { status_json "$tmp/spool-c"; cat "$tmp/watch.err"; } | diag
fi
done_testing
