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
# --status --jsonl` says the same of every device over its kept channel. The table shows the
# hostile strings escaped.
# Needs root. A lab that cannot start is a failure, never a skip. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" channel-lab-test
RUNS=${RUNS:-3}
TIMEOUT=2
check=$here/Tests/Scripts/channel-lab-check.py
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

# The table: the hostile app name and status escaped, never raw.
"$castlab" exec "$bin" --status --timeout "$TIMEOUT" --state "$tmp/state.json" >"$tmp/table" 2>"$tmp/table.err"
if grep -q 'YouTube\\e\[2J\\u{202E}' "$tmp/table" && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/table"; then
  ok "the table shows the hostile app name escaped, with no raw control character"
else notok "the table shows the hostile app name escaped, with no raw control character"; diag <"$tmp/table"; fi
echo "# $((SECONDS - t0)) s" >&2
