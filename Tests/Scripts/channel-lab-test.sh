#!/usr/bin/env bash
# channel-lab-test.sh: the Cast channel against the lab's receivers (Scripts/lab/receiver.py:
# Python's ssl and Google's protobuf, independent of cast-scan's code). The lab
# (Fixtures/lab/channel.json) has devices that answer (idle, playing the TXT's status text, a
# status given whole with hostile strings and a key the model does not know, a port other than
# 8009) and one device per failure mode: refuse, drop, stallTLS, noStatus, hugeFrame, garbage,
# notJSON. For `cast-scan --status --json` (RUNS times, default 3) and `cast-scan status --json`
# with every device's address: each answering device's status is the one the lab serves
# (`castlab status --json`), each failing one gives its mode's reason
# (Tests/Scripts/channel-lab-check.py), and the command ends within its --timeout and 1.5 s
# (a process start and the namespace's exec), however many devices never answer. `watch
# --status --jsonl` says the same of every device over its kept channel, and `serve --status`
# in its metrics (promtool reads them). The table shows the hostile strings escaped.
# Needs root. A lab that cannot start is a failure, never a skip. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" channel-lab-test
RUNS=${RUNS:-3}
TIMEOUT=2
check=$here/Tests/Scripts/channel-lab-check.py
# The watch and the server run in the background: ended on every exit, before the lab goes.
# (`jobs -p`: this shell's children not yet waited for, so no PID that may have been reused.)
test_cleanup() {
  local pid
  for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
}
t0=$SECONDS
build_cast_scan
lab_up "$here/Fixtures/lab/channel.json"
"$castlab" status --json >"$tmp/lab.json"

# timed OUT ERR CMD...: runs CMD in the lab; prints its exit status and wall time in seconds.
timed() {
  local out=$1 err=$2 start end rc; shift 2
  start=$(date +%s%N)
  "$castlab" exec "$@" >"$out" 2>"$err"; rc=$?
  end=$(date +%s%N)
  echo "$rc $(( (end - start) / 1000000 ))"
}
within() { [ "$1" -le $((TIMEOUT * 1000 + 1500)) ]; }

for run in $(seq "$RUNS"); do
  read -r rc ms < <(timed "$tmp/list.json" "$tmp/list.err" "$bin" --status --json --timeout "$TIMEOUT" --state "$tmp/state.json")
  what="--status --json, run $run: every device's status or reason as the lab serves it"
  if [ "$rc" = 0 ] && "$PY" "$check" "$tmp/lab.json" "$tmp/list.json" --kind listing >"$tmp/out" 2>&1; then ok "$what"
  else notok "$what (exit $rc)"; diag <"$tmp/out"; diag <"$tmp/list.err"; fi
  within "$ms" && ok "--status --json, run $run: ends in $ms ms (--timeout $TIMEOUT)" ||
    notok "--status --json, run $run: ends in $ms ms, more than --timeout $TIMEOUT and 1.5 s"
done

# Every device asked directly by address and port.
mapfile -t endpoints < <("$PY" - "$tmp/lab.json" <<'PY'
import json, sys
for d in json.load(open(sys.argv[1]))["devices"]:
    print(f"{d['ipv4']}:{d['port']}" if d["ipv4"] else f"[{d['ipv6']}]:{d['port']}")
PY
)
read -r rc ms < <(timed "$tmp/status.json" "$tmp/status.err" "$bin" status --json --timeout "$TIMEOUT" "${endpoints[@]}")
what="status --json of the ${#endpoints[@]} devices' addresses: each status or reason as the lab serves it; exit 1 (some fail)"
if [ "$rc" = 1 ] && "$PY" "$check" "$tmp/lab.json" "$tmp/status.json" --kind status >"$tmp/out" 2>&1; then ok "$what"
else notok "$what (exit $rc)"; diag <"$tmp/out"; diag <"$tmp/status.err"; fi
within "$ms" && ok "status: ends in $ms ms (--timeout $TIMEOUT)" || notok "status: ends in $ms ms, more than --timeout $TIMEOUT and 1.5 s"

# watch --status: a kept channel to each device; once every device has said its status or why
# it cannot (each failure mode within the attempt's 5 s), the same comparison; then SIGTERM.
"$castlab" exec "$bin" watch --status --jsonl >"$tmp/watch.jsonl" 2>"$tmp/watch.err" &
watcher=$!
count=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["devices"]))' "$tmp/lab.json")
for i in $(seq 300); do
  [ "$(grep -cE '"event":"(receiverStatus|unreachable)"' "$tmp/watch.jsonl")" -ge "$count" ] && break
  sleep 0.1
done
kill -TERM "$watcher" 2>/dev/null; wait "$watcher"; rc=$?
what="watch --status --jsonl: every device's status or reason as the lab serves it; exit 0 on SIGTERM"
if [ "$rc" = 0 ] && "$PY" "$check" "$tmp/lab.json" "$tmp/watch.jsonl" --kind watch >"$tmp/out" 2>&1; then ok "$what"
else notok "$what (exit $rc)"; diag <"$tmp/out"; diag <"$tmp/watch.err"; fi

# serve --status: once every device has its cast_device_reachable series, each is 1 for a
# device that serves a status (with its volume) and 0 for a failing one; promtool reads it.
port=$((20000 + RANDOM % 20000))
"$castlab" exec "$bin" serve --status --listen "127.0.0.1:$port" >"$tmp/serve.out" 2>"$tmp/serve.err" &
server=$!
for i in $(seq 300); do
  "$castlab" exec "$PY" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
    "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>/dev/null &&
    [ "$(grep -c '^cast_device_reachable{' "$tmp/metrics")" -ge "$count" ] &&
    [ "$(grep -c '^cast_device_reachable{.*} 1$' "$tmp/metrics")" -ge "$("$PY" -c '
import json, sys; print(sum(1 for d in json.load(open(sys.argv[1]))["devices"] if d["receiver"] and not d["receiver"]["failure"]))' "$tmp/lab.json")" ] && break
  sleep 0.1
done
if "$PY" - "$tmp/lab.json" "$tmp/metrics" >"$tmp/out" 2>&1 <<'PY'
import json, re, sys
lab = json.load(open(sys.argv[1]))["devices"]
metrics = open(sys.argv[2]).read()
def value(name, uid):
    m = re.search(r'^%s\{unique_id="googlecast:%s"\} (\S+)$' % (name, uid), metrics, re.M)
    return None if m is None else float(m.group(1))
for d in lab:
    uid = next(t[3:] for t in d["txt"] if t.startswith("id=")).lower()
    served = d["receiver"]
    want = 0.0 if served["failure"] else 1.0
    got = value("cast_device_reachable", uid)
    assert got == want, (d["instance"], "reachable", got, want)
    if not served["failure"]:
        level = served["status"]["volume"]["level"]
        assert value("cast_device_volume_level", uid) == level, (d["instance"], "volume", value("cast_device_volume_level", uid), level)
print("every device's cast_device_reachable and volume as the lab serves them")
PY
then ok "serve --status: every device's cast_device_reachable and cast_device_volume_level as the lab serves them"
else notok "serve --status: every device's cast_device_reachable and cast_device_volume_level as the lab serves them"; diag <"$tmp/out"; diag <"$tmp/serve.err"; fi
if promtool check metrics <"$tmp/metrics" >"$tmp/promtool" 2>&1; then ok "serve --status: promtool check metrics reads the scrape"
else notok "serve --status: promtool check metrics reads the scrape"; diag <"$tmp/promtool"; fi
kill -TERM "$server" 2>/dev/null; wait "$server"; rc=$?
[ "$rc" = 0 ] && ok "serve --status exits 0 on SIGTERM" || notok "serve --status exits 0 on SIGTERM (got $rc)"

# The table: the hostile app name and status escaped, never raw.
"$castlab" exec "$bin" --status --timeout "$TIMEOUT" --state "$tmp/state.json" >"$tmp/table" 2>"$tmp/table.err"
if grep -q 'YouTube\\e\[2J\\u{202E}' "$tmp/table" && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/table"; then
  ok "the table shows the hostile app name escaped, with no raw control character"
else notok "the table shows the hostile app name escaped, with no raw control character"; diag <"$tmp/table"; fi
echo "# $((SECONDS - t0)) s" >&2
done_testing
