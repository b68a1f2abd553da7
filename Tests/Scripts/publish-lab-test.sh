#!/usr/bin/env bash
# publish-lab-test.sh: `cast-scan publish` on a host of its own in the lab (castlab publisher:
# its own D-Bus and avahi-daemon, on the lab's link), through each backend (avahi, dnssd), seen
# from the sender by independent clients: avahi-browse -rpt (the sender's avahi-daemon),
# pychromecast (python-zeroconf), cast-scan through every backend, and the app-ID subtype
# browse; their TXT is the file's (friendly names with " (simulated)"). Then: SIGINT and
# SIGTERM withdraw every device within 1 s of the signal (a watcher on the sender sees each
# removal); kill -9 (measured: the daemon withdraws a dead client's services itself); a restart
# of the publisher's avahi-daemon publishes everything again; a script's changes reach a
# watcher in order, each within 1 s; a name another host has is renamed the daemon's way and
# said on stderr. Bad input is tested without the lab (EndToEndPublishTests).
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" publish-lab-test

file="$here/Fixtures/publish/receivers.json"
bench_venv=${BENCH_VENV:-$here/.build/bench-venv}
lab_venv=${CASTLAB_VENV:-$here/.build/lab-venv}

# The background processes this shell has not waited for yet (`jobs -p`): a PID already waited
# for may belong to another process by now.
test_cleanup() {
  local pid
  for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null; done
  for pid in $(jobs -p); do wait "$pid" 2>/dev/null; done
}

build_cast_scan
"$here/Scripts/bench-venv" >"$tmp/venv.log" 2>&1 || { cat "$tmp/venv.log" >&2; bail_out "the peers' venv (pychromecast) could be made"; }

# within SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds (0) or SECONDS pass (1).
within() {
  local deadline; deadline=$(($(date +%s%N) + ${1%.*} * 1000000000)); shift
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s%N)" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}

# publish_start NAME ARGS...: cast-scan publish on the publisher host, in the background, its
# stdout and stderr in $tmp/NAME.out and .err; its PID in $pub_pid.
publish_start() {
  local name=$1; shift
  "$castlab" publisher exec "$bin" publish "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pub_pid=$!
}

published_count() { grep -c " published " "$1" 2>/dev/null || true; }

# watch_start NAME BACKEND: cast-scan watch --jsonl on the sender; output in $tmp/NAME.jsonl.
watch_start() {
  "$castlab" exec "$bin" watch --jsonl --backend "$2" >"$tmp/$1.jsonl" 2>"$tmp/$1.werr" &
  watch_pid=$!
}

# expected: the file's receivers as cast-scan publishes them (id, instance, fn with the suffix,
# every TXT string), one JSON object per line, in file order.
"$PY" - "$file" >"$tmp/expected.jsonl" <<'PY'
import json, sys
devices = json.load(open(sys.argv[1]))["devices"]
for d in devices:
    if "instance" in d:
        txt = [t + " (simulated)" if t.startswith("fn=") else t for t in d["txt"]]
        print(json.dumps({"instance": d["instance"], "id": d["txt"][0][3:], "fn": [t for t in txt if t.startswith("fn=")][0][3:],
                          "txt": txt, "apps": d["subtypes"]}))
    else:
        hexid = d["id"].replace("-", "").lower()
        label = "-".join("".join(c if c.isascii() and c.isalnum() else "-" for c in d["model"]).split("-")).strip("-")
        label = "-".join(p for p in label.split("-") if p)
        print(json.dumps({"instance": f"{label}-{hexid}", "id": d["id"], "fn": d["name"] + " (simulated)", "txt": None,
                          "apps": d.get("appIDs", ["CC1AD845"])}))
PY
count=$(wc -l <"$tmp/expected.jsonl")

lab_up --devices 1
# The lab's third stack: Fixtures/lab/publisher.json published by cast-scan from the publisher host.
if ! CASTLAB_CAST_SCAN=$bin "$castlab" publisher start "$here/Fixtures/lab/publisher.json" >"$tmp/pubhost" 2>&1; then
  cat "$tmp/pubhost" >&2; bail_out "the publisher host starts and publishes Fixtures/lab/publisher.json"
fi
"$castlab" exec timeout 20 avahi-browse -rpt _googlecast._tcp >"$tmp/stack.txt" 2>/dev/null
if grep -q 'fn=Hall (cast-scan publish)' "$tmp/stack.txt" && grep -q 'fn=Study (cast-scan publish)' "$tmp/stack.txt"; then
  ok "castlab publisher start FILE: the lab's third stack (cast-scan publish) serves Fixtures/lab/publisher.json to the sender's avahi-daemon"
else
  notok "the lab's third stack: the sender's avahi-browse lacks Fixtures/lab/publisher.json's devices"; diag <"$tmp/stack.txt"
fi

# check_avahi_browse LABEL: the sender's avahi-browse -rpt lists every receiver, with its TXT.
check_avahi_browse() {
  "$castlab" exec timeout 20 avahi-browse -rpt _googlecast._tcp >"$tmp/browse.txt" 2>/dev/null
  local result
  result=$("$PY" - "$tmp/browse.txt" "$tmp/expected.jsonl" <<'PY'
import json, re, sys
def unescape(s):
    return re.sub(rb"\\(\d{3}|.)", lambda m: bytes([int(m.group(1))]) if m.group(1).isdigit() else m.group(1), s.encode()).decode("utf-8", "replace")
seen = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    f = line.rstrip("\n").split(";")
    if f[0] != "=" or len(f) < 10:
        continue
    txt = [unescape(t) for t in re.findall(r'"((?:[^"\\]|\\.)*)"', ";".join(f[9:]))]
    seen.setdefault(unescape(f[3]), txt)
bad = []
for line in open(sys.argv[2]):
    e = json.loads(line)
    txt = seen.get(e["instance"])
    if txt is None:
        bad.append(f"{e['instance']} not listed"); continue
    if ("fn=" + e["fn"]) not in txt:
        bad.append(f"{e['instance']}: fn is not {e['fn']!r}: {txt}")
    if e["txt"] is not None and sorted(txt) != sorted(e["txt"]):
        bad.append(f"{e['instance']}: TXT {txt} is not {e['txt']}")
print("; ".join(bad) or "ok")
PY
)
  if [ "$result" = ok ]; then ok "$1: avahi-browse -rpt on the sender lists all $count receivers with the file's TXT"; else notok "$1: avahi-browse: $result"; fi
}

# check_subtype LABEL: the CC1AD845 subtype browse lists the receivers with that app ID, and
# not the one without.
check_subtype() {
  "$castlab" exec timeout 20 avahi-browse -pt _CC1AD845._sub._googlecast._tcp >"$tmp/sub.txt" 2>/dev/null
  local result
  result=$("$PY" - "$tmp/sub.txt" "$tmp/expected.jsonl" <<'PY'
import json, re, sys
def unescape(s):
    return re.sub(rb"\\(\d{3}|.)", lambda m: bytes([int(m.group(1))]) if m.group(1).isdigit() else m.group(1), s.encode()).decode("utf-8", "replace")
names = {unescape(l.split(";")[3]) for l in open(sys.argv[1], encoding="utf-8", errors="replace") if l.startswith("+;")}
bad = []
for line in open(sys.argv[2]):
    e = json.loads(line)
    if ("CC1AD845" in e["apps"]) != (e["instance"] in names):
        bad.append(f"{e['instance']} (apps {e['apps']}) {'missing' if e['instance'] not in names else 'listed'}")
print("; ".join(bad) or "ok")
PY
)
  if [ "$result" = ok ]; then ok "$1: the _CC1AD845._sub browse lists exactly the receivers with that app ID"; else notok "$1: subtype browse: $result"; fi
}

# check_pychromecast LABEL: pychromecast's CastBrowser on the sender finds every receiver by
# its id and friendly name.
check_pychromecast() {
  local result
  result=$("$castlab" exec "$bench_venv/bin/python" - "$tmp/expected.jsonl" 2>&1 <<'PY'
import json, sys, time, uuid
import pychromecast, zeroconf
expected = [json.loads(l) for l in open(sys.argv[1])]
zc = zeroconf.Zeroconf()
browser = pychromecast.discovery.CastBrowser(pychromecast.discovery.SimpleCastListener(), zc)
browser.start_discovery()
deadline = time.time() + 10
def found():
    names = {str(s.uuid): s.friendly_name for s in browser.devices.values()}
    return {e["instance"]: names.get(str(uuid.UUID(e["id"].replace("-", "")))) for e in expected}
while time.time() < deadline and any(v is None for v in found().values()):
    time.sleep(0.2)
browser.stop_discovery(); zc.close()
bad = [f"{k}: {v!r}" for k, v in found().items() if v != next(e["fn"] for e in expected if e["instance"] == k)]
print("; ".join(bad) or "ok")
PY
)
  result=$(tail -1 <<<"$result")
  if [ "$result" = ok ]; then ok "$1: pychromecast finds all $count receivers with their friendly names"; else notok "$1: pychromecast: $result"; fi
}

# check_cast_scan LABEL: cast-scan on the sender, through every backend, lists every receiver
# (id, friendly name, TXT in the file's order).
check_cast_scan() {
  local backend result
  for backend in avahi dnssd mdns; do
    "$castlab" exec "$bin" --backend "$backend" --json --timeout 5 >"$tmp/list-$backend.json" 2>"$tmp/list-$backend.err"
    result=$("$PY" - "$tmp/list-$backend.json" "$tmp/expected.jsonl" <<'PY'
import json, sys
try:
    devices = {d["instanceName"]: d for d in json.load(open(sys.argv[1]))["devices"]}
except Exception as e:
    print(f"no JSON: {e}"); sys.exit()
bad = []
for line in open(sys.argv[2]):
    e = json.loads(line)
    d = devices.get(e["instance"])
    if d is None:
        bad.append(f"{e['instance']} not listed"); continue
    if d["friendlyName"] != e["fn"]: bad.append(f"{e['instance']}: {d['friendlyName']!r}")
    if e["txt"] is not None and d["txt"] != e["txt"]: bad.append(f"{e['instance']}: TXT {d['txt']}")
    if e["txt"] is None and [t.split("=")[0] for t in d["txt"]] != "id cd rm ve md ic fn ca st bs nf rs".split():
        bad.append(f"{e['instance']}: TXT keys {d['txt']}")
print("; ".join(bad) or "ok")
PY
)
    if [ "$result" = ok ]; then ok "$1: cast-scan --backend $backend lists all $count receivers, TXT in the file's order"; else notok "$1: cast-scan --backend $backend: $result"; sed 's/^/#   /' "$tmp/list-$backend.err" | head -5 >&2; fi
  done
}

# removal_delays JSONL SIGNAL-TIME-NS: the seconds from the signal to each receiver's removal
# in a watch's output ("gone" when one never went).
removal_delays() {
  "$PY" - "$1" "$2" "$tmp/expected.jsonl" <<'PY'
import json, sys, datetime
signal = int(sys.argv[2]) / 1e9
expected = [json.loads(l)["instance"] for l in open(sys.argv[3])]
removed = {}
for line in open(sys.argv[1]):
    try: e = json.loads(line)
    except ValueError: continue
    if e.get("event") == "removed" and e.get("device"):
        t = datetime.datetime.fromisoformat(e["time"].replace("Z", "+00:00")).timestamp()
        removed.setdefault(e["device"]["instanceName"], t)
print(" ".join(f"{removed[i] - signal:.2f}" if i in removed else "never" for i in expected))
PY
}

# signal_test BACKEND SIGNAL: publish, a watcher sees all, the signal, each removal within 1 s.
signal_test() {
  local backend=$1 sig=$2 label="--backend $1"
  publish_start "pub-$backend" --backend "$backend" --interface eth0 "$file"
  if within 20 bash -c "[ \$(grep -c ' published ' '$tmp/pub-$backend.out') -ge $count ]"; then
    ok "$label: all $count receivers published ($(head -c 300 "$tmp/pub-$backend.err" | tr '\n' ' '))"
  else
    notok "$label: $(published_count "$tmp/pub-$backend.out") of $count published within 20 s"; diag <"$tmp/pub-$backend.err"; return
  fi
  if ! grep -q " published .*: \"Test Lounge TV (simulated)\"" "$tmp/pub-$backend.out"; then notok "$label: the published line names the device"; diag <"$tmp/pub-$backend.out"; fi
  watch_start "watch-$backend" mdns
  within 15 bash -c "[ \$(grep -c '\"inserted\"' '$tmp/watch-$backend.jsonl') -ge $((count + 1)) ]" ||
    notok "$label: the watcher saw the receivers"
  check_avahi_browse "$label"
  check_subtype "$label"
  check_pychromecast "$label"
  check_cast_scan "$label"
  "$castlab" exec "$lab_venv/bin/python" -u "$here/Tests/Scripts/goodbye-sniffer.py" lab0 _googlecast._tcp.local. >"$tmp/goodbyes-$backend" 2>&1 &
  local sniffer=$!
  within 5 grep -q ready "$tmp/goodbyes-$backend" || notok "$label: the goodbye sniffer listens"
  local t0; t0=$(date +%s%N)
  kill "-$sig" "$pub_pid"
  wait "$pub_pid"; local rc=$?
  within 4 bash -c "[ \$(grep -c '\"removed\"' '$tmp/watch-$backend.jsonl') -ge $count ]"
  kill "$sniffer" 2>/dev/null; wait "$sniffer" 2>/dev/null
  local goodbyes; goodbyes=$("$PY" - "$tmp/goodbyes-$backend" "$t0" "$tmp/expected.jsonl" <<'PY'
import json, sys
heard = dict(reversed(l.split(" ", 1)) for l in open(sys.argv[1]).read().splitlines() if l != "ready")
heard = {k: float(v) for k, v in heard.items()}
signal = int(sys.argv[2]) / 1e9
print(" ".join(f"{heard[e] - signal:.2f}" if e in heard else "never" for e in (json.loads(l)["instance"] for l in open(sys.argv[3]))))
PY
)
  local delays; delays=$(removal_delays "$tmp/watch-$backend.jsonl" "$t0")
  # A watcher drops a record one second after its goodbye (RFC 6762 section 10.1), so the
  # withdrawal is the goodbye on the link, and the removals follow it by that second.
  if [ "$rc" = 0 ] && "$PY" -c 'import sys; d = sys.argv[1].split(); sys.exit(not all(x != "never" and -0.05 <= float(x) <= 1.0 for x in d))' "$goodbyes"; then
    ok "$label: SIG$sig ends publish with 0 and every goodbye is on the link within 1 s (seconds after the signal: $goodbyes)"
  else
    notok "$label: SIG$sig: exit $rc; goodbyes after: $goodbyes"; diag <"$tmp/pub-$backend.err"
  fi
  if "$PY" -c 'import sys; d = sys.argv[1].split(); sys.exit(not all(x != "never" and float(x) <= 2.0 for x in d))' "$delays"; then
    ok "$label: the watcher sees each removal one second after its goodbye, as RFC 6762 asks (seconds after the signal: $delays)"
  else
    notok "$label: the watcher's removals after the signal: $delays"
  fi
  grep -q "withdrew $count devices" "$tmp/pub-$backend.err" && ok "$label: publish says it withdrew $count devices" ||
    { notok "$label: publish says what it withdrew"; diag <"$tmp/pub-$backend.err"; }
  kill "$watch_pid" 2>/dev/null; wait "$watch_pid" 2>/dev/null
}

signal_test avahi TERM
signal_test dnssd INT

# kill -9: the daemon sees the client's D-Bus connection close and withdraws its services.
publish_start kill9 --interface eth0 "$file"
within 20 bash -c "[ \$(grep -c ' published ' '$tmp/kill9.out') -ge $count ]" || notok "kill -9: published"
watch_start watch-kill9 mdns
within 15 bash -c "[ \$(grep -c '\"inserted\"' '$tmp/watch-kill9.jsonl') -ge $((count + 1)) ]"
t0=$(date +%s%N); kill -KILL "$pub_pid"; wait "$pub_pid" 2>/dev/null
within 10 bash -c "[ \$(grep -c '\"removed\"' '$tmp/watch-kill9.jsonl') -ge $count ]"
delays=$(removal_delays "$tmp/watch-kill9.jsonl" "$t0")
if "$PY" -c 'import sys; sys.exit(not all(x != "never" for x in sys.argv[1].split()))' "$delays"; then
  ok "kill -9: avahi-daemon withdraws a dead client's receivers itself (seconds after the kill: $delays)"
else
  notok "kill -9: removals after: $delays"
fi
kill "$watch_pid" 2>/dev/null; wait "$watch_pid" 2>/dev/null

# The publisher's avahi-daemon restarts: everything is published again, through each backend.
restart_test() {
  local backend=$1
  publish_start "restart-$backend" --backend "$backend" --interface eth0 "$file"
  within 20 bash -c "[ \$(grep -c ' published ' '$tmp/restart-$backend.out') -ge $count ]" || notok "--backend $backend: published before the restart"
  "$castlab" publisher daemon restart >"$tmp/restart.log" 2>&1 || { notok "the publisher's avahi-daemon restarts"; diag <"$tmp/restart.log"; }
  local t0; t0=$(date +%s)
  if within 20 bash -c "[ \$(grep -c ' published ' '$tmp/restart-$backend.out') -ge $((2 * count)) ]" &&
     grep -q "lost the daemon" "$tmp/restart-$backend.err" && grep -q "the daemon is back" "$tmp/restart-$backend.err"; then
    ok "--backend $backend, an avahi-daemon restart: publish says it lost the daemon and publishes all $count again ($(($(date +%s) - t0)) s)"
  else
    notok "--backend $backend, an avahi-daemon restart: $(published_count "$tmp/restart-$backend.out") published lines"; diag <"$tmp/restart-$backend.err"
  fi
  check_avahi_browse "--backend $backend, after the restart"
  kill -TERM "$pub_pid"; wait "$pub_pid" 2>/dev/null
}
restart_test avahi
restart_test dnssd

# A script of changes: each reaches a watcher in order, within 1 s of publish making it (a
# removal 1 s after its goodbye, as every querier holds a record that long). The lines go to
# publish's standard input one at a time: the first once the watcher lists every device, each
# next once the watcher has shown the one before, so a device the watcher lists late cannot
# take its first change for an insert.
watch_start watch-script mdns
fifo="$tmp/script.fifo"; mkfifo "$fifo"
"$castlab" publisher exec "$bin" publish --interface eth0 --script - "$file" <"$fifo" >"$tmp/script.out" 2>"$tmp/script.err" &
pub_pid=$!
exec 6>"$fifo"
within 30 bash -c "[ \$(grep -c '\"event\":\"inserted\"' '$tmp/watch-script.jsonl') -ge $count ]" ||
  notok "the script: the watcher lists the $count devices within 30 s"
# shown SINCE PATTERN: a watch line after line SINCE matches PATTERN.
shown() { tail -n "+$(($1 + 1))" "$tmp/watch-script.jsonl" | grep -q "$2"; }
while IFS='|' read -r change pattern; do
  since=$(wc -l <"$tmp/watch-script.jsonl")
  echo "$change" >&6
  within 30 shown "$since" "$pattern" || { notok "the script: the watcher shows '$change' within 30 s"; break; }
done <<'SCRIPT'
rename 5a6b7c8d9e0f11223344556677889900 Test Den TV|"friendlyName":"Test Den TV (simulated)"
start-app 7c8d9e0f112233445566778899001122 Spotify|"instanceName":"Google-Nest-Mini-7c8d.*"statusText":"Spotify"
stop-app Google-Cast-Group-6b7c8d9e0f1122334455667788990011|"instanceName":"Google-Cast-Group-6b7c.*"status":"idle"
set 5a6b7c8d9e0f11223344556677889900 rs=Netflix st=1|"statusText":"Netflix"
withdraw 7c8d9e0f112233445566778899001122|"instanceName":"Google-Nest-Mini-7c8d.*"event":"removed"
return 7c8d9e0f112233445566778899001122|"instanceName":"Google-Nest-Mini-7c8d.*"event":"inserted"
SCRIPT
exec 6>&-
result=$("$PY" - "$tmp/watch-script.jsonl" "$tmp/script.out" <<'PY'
import json, sys, datetime
events = []
for line in open(sys.argv[1]):
    try: e = json.loads(line)
    except ValueError: continue
    if e.get("event") in ("inserted", "updated", "moved", "removed") and e.get("device"):
        t = datetime.datetime.fromisoformat(e["time"].replace("Z", "+00:00")).timestamp()
        events.append((t, e["event"], e["device"]))
day = datetime.datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
changes = []
for line in open(sys.argv[2]):
    parts = line.split(" ", 2)
    if len(parts) == 3 and parts[1] in ("changed", "withdrew", "returned"):
        h, m, s = parts[0].split(":")
        changes.append((day.timestamp() + int(h) * 3600 + int(m) * 60 + float(s), parts[1], parts[2].strip()))
wants = [
    lambda e: e[1] in ("updated", "moved") and e[2]["friendlyName"] == "Test Den TV (simulated)",
    lambda e: e[1] == "updated" and e[2]["instanceName"].endswith("7c8d9e0f112233445566778899001122") and e[2]["status"] == "busy" and e[2].get("statusText") == "Spotify",
    lambda e: e[1] == "updated" and e[2]["instanceName"].startswith("Google-Cast-Group-6b7c") and e[2]["status"] == "idle",
    lambda e: e[1] in ("updated", "moved") and e[2]["friendlyName"] == "Test Den TV (simulated)" and e[2].get("statusText") == "Netflix",
    lambda e: e[1] == "removed" and e[2]["instanceName"].endswith("7c8d9e0f112233445566778899001122"),
    lambda e: e[1] == "inserted" and e[2]["instanceName"].endswith("7c8d9e0f112233445566778899001122"),
]
if len(changes) != len(wants):
    print(f"publish printed {len(changes)} changes: {changes}"); sys.exit()
out, last, index = [], 0.0, 0
for (when, kind, text), want in zip(changes, wants):
    match = next(((i, e) for i, e in enumerate(events) if i >= index and e[0] >= when - 0.05 and want(e)), None)
    if match is None:
        near = [(round(t - when, 2), k, d["instanceName"][:24], d["status"]) for t, k, d in events if abs(t - when) < 3]
        print(f"no matching event for {kind} {text} after event {index}; near it: {near}"); sys.exit()
    index = match[0] + 1
    out.append(f"{match[1][0] - when:.2f}")
# A removal comes one second after its goodbye (RFC 6762 section 10.1), and a return is a new
# registration the daemon probes first (three probes 250 ms apart, section 8.1) before it
# announces it: 1 s more for those two (returns measured at 1.00 and 1.01 s).
late = [d for d, (_, kind, _) in zip(out, changes) if float(d) > (2.0 if kind in ("withdrew", "returned") else 1.0)]
print(("late: " if late else "ok ") + " ".join(out))
PY
)
if [[ "$result" == ok* ]]; then ok "a script's 6 changes reach a watcher in order, each within 1 s, the withdrawal and the return within 2 s (seconds after publish made them: ${result#ok })"; else notok "the script: $result"; diag <"$tmp/script.err"; fi
kill -TERM "$pub_pid"; wait "$pub_pid" 2>/dev/null
kill "$watch_pid" 2>/dev/null; wait "$watch_pid" 2>/dev/null

# A name conflict: the sender's own avahi-daemon publishes one of the names first; the
# publisher's daemon finds it while probing and takes its next name, as avahi does.
"$PY" - "$file" >"$tmp/one.json" <<'PY'
import json, sys
print(json.dumps({"devices": json.load(open(sys.argv[1]))["devices"][:1]}))
PY
"$castlab" exec "$bin" publish --exact-names "$tmp/one.json" >"$tmp/first.out" 2>"$tmp/first.err" &
first_pid=$!
within 15 bash -c "grep -q ' published ' '$tmp/first.out'" || notok "the first holder of the name published it"
publish_start conflict --interface eth0 "$tmp/one.json"
if within 15 bash -c "grep -q ' published ' '$tmp/conflict.out'" &&
   grep -q 'name conflict: Chromecast-5a6b7c8d9e0f11223344556677889900 is taken on the network; publishing as Chromecast-5a6b7c8d9e0f11223344556677889900 #2' "$tmp/conflict.err" &&
   grep -q ' published Chromecast-5a6b7c8d9e0f11223344556677889900 #2:' "$tmp/conflict.out"; then
  ok "a name another host holds: renamed to the daemon's next name (#2), said on stderr"
else
  notok "the name conflict"; cat "$tmp/conflict.out" "$tmp/conflict.err" | diag
fi
kill -TERM "$pub_pid" "$first_pid"; wait "$pub_pid" "$first_pid" 2>/dev/null

# --interface: nothing goes on an interface not chosen. Published on the publisher's loopback
# only, the devices never reach the lab's link.
# The devices published before are withdrawn (goodbyes: the sender's daemon drops them 1 s
# later); once it lists none of them, whatever it lists comes from the run below.
withdrawn_from_sender() {
  [ "$("$castlab" exec timeout 20 avahi-browse -pt _googlecast._tcp 2>/dev/null | grep -c "Test ")" = 0 ]
}
within 20 withdrawn_from_sender || notok "the devices published before are still on the sender 20 s after their withdrawal"
publish_start loonly --interface lo "$file"
# Once every device is published (probed and announced), what could leak has gone out.
within 20 bash -c "[ \$(grep -c ' published ' '$tmp/loonly.out') -ge $count ]" ||
  notok "--interface lo: $(published_count "$tmp/loonly.out") of $count published within 20 s"
"$castlab" exec timeout 20 avahi-browse -rpt _googlecast._tcp >"$tmp/lo.txt" 2>/dev/null
"$castlab" exec "$bin" --backend mdns --json --timeout 3 >"$tmp/lo.json" 2>/dev/null
if kill -0 "$pub_pid" 2>/dev/null && ! grep -q "Test Lounge TV" "$tmp/lo.txt" && ! grep -q "Test Lounge TV" "$tmp/lo.json" &&
   grep -q "Hall (cast-scan publish)" "$tmp/lo.txt"; then
  ok "--interface lo: publish runs and nothing of it reaches the lab's link (avahi-browse and the querier on the sender)"
else
  notok "--interface lo: $(grep -c 'Test ' "$tmp/lo.txt") lines of the file's devices on the sender"; cat "$tmp/loonly.out" "$tmp/loonly.err" | diag
fi
kill -TERM "$pub_pid"; wait "$pub_pid" 2>/dev/null

# --script -: changes read from standard input as they come.
fifo="$tmp/changes.fifo"; mkfifo "$fifo"
watch_start watch-stdin mdns
"$castlab" publisher exec "$bin" publish --interface eth0 --script - "$file" <"$fifo" >"$tmp/stdin.out" 2>"$tmp/stdin.err" &
pub_pid=$!
exec 7>"$fifo"
within 20 bash -c "[ \$(grep -c ' published ' '$tmp/stdin.out') -ge $count ]" || notok "--script -: published"
echo "rename 7c8d9e0f112233445566778899001122 Test Pantry" >&7
echo "jump nowhere" >&7
echo "start-app Google-Nest-Mini-7c8d9e0f112233445566778899001122 Radio" >&7
if within 5 bash -c "grep -q '\"Test Pantry (simulated)\"' '$tmp/watch-stdin.jsonl' && grep -q '\"statusText\":\"Radio\"' '$tmp/watch-stdin.jsonl'" &&
   grep -q '"jump" is not an action' "$tmp/stdin.err" && kill -0 "$pub_pid" 2>/dev/null; then
  ok "--script -: lines from standard input are applied as they come (a bad one is said and skipped)"
else
  notok "--script -"; cat "$tmp/stdin.out" "$tmp/stdin.err" | diag
fi
exec 7>&-
kill -TERM "$pub_pid"; wait "$pub_pid" 2>/dev/null
kill "$watch_pid" 2>/dev/null; wait "$watch_pid" 2>/dev/null

# The Cast channel: pychromecast (an independent client, in the sender's namespace) finds a
# simulated receiver, reads its status from publish's channel, and sees the changes a script
# line makes (the volume, an app started) as a status change; cast-scan --status reads every
# published device as reachable, each on a port of its own.
fifo="$tmp/channel.fifo"; mkfifo "$fifo"
"$castlab" publisher exec "$bin" publish --interface eth0 --script - "$file" <"$fifo" >"$tmp/channel.out" 2>"$tmp/channel.err" &
pub_pid=$!
exec 7>"$fifo"
within 20 bash -c "[ \$(grep -c ' published ' '$tmp/channel.out') -ge $count ]" || notok "the Cast channel: published"
"$castlab" exec timeout 90 "$bench_venv/bin/python" "$here/Tests/Scripts/pychromecast-status.py" --name "Test Lounge TV (simulated)" \
  --ready "$tmp/pychromecast.ready" --expect-app Netflix --expect-volume 0.3 >"$tmp/pychromecast.out" 2>"$tmp/pychromecast.err" &
pc_pid=$!
within 60 test -e "$tmp/pychromecast.ready"
echo "volume 5a6b7c8d9e0f11223344556677889900 0.3" >&7
echo "start-app 5a6b7c8d9e0f11223344556677889900 Netflix" >&7
wait "$pc_pid"; rc=$?
if [ "$rc" = 0 ] && "$PY" - "$tmp/pychromecast.out" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
initial, changed = lines[0]["initial"], lines[1]["changed"]
assert initial["display_name"] == "Backdrop" and initial["volume_level"] == 0.5, initial
assert changed["app_id"] == "CA5E8412" and changed["status_text"] == "Netflix" and changed["volume_level"] == 0.3, changed
PY
then ok "pychromecast reads a simulated receiver's status from publish (Backdrop, 50%) and sees a script's volume and start-app as a status change (Netflix, 30%)"
else notok "pychromecast and publish's Cast channel (exit $rc)"; cat "$tmp/pychromecast.out" "$tmp/pychromecast.err" "$tmp/channel.err" | diag; fi
# Until the listing has the file's devices (a one-shot scan right after a publish can end before
# every answer), at most 20 s; then each must answer its channel.
channel_listing() {
  "$castlab" exec "$bin" --status --json --state "$tmp/state-channel.json" >"$tmp/channel.json" 2>"$tmp/channel-scan.err" &&
    "$PY" - "$tmp/channel.json" "$count" <<'PY'
import json, sys
devices = [d for d in json.load(open(sys.argv[1]))["devices"] if d["friendlyName"].endswith("(simulated)")]
assert len(devices) == int(sys.argv[2]), len(devices)
PY
}
within 20 channel_listing
if "$PY" - "$tmp/channel.json" "$count" <<'PY'
import json, sys
devices = [d for d in json.load(open(sys.argv[1]))["devices"] if d["friendlyName"].endswith("(simulated)")]
assert len(devices) == int(sys.argv[2]), len(devices)
assert all(d["receiver"]["reachable"] for d in devices), [d["receiver"] for d in devices]
ports = [d["port"] for d in devices]
assert len(set(ports)) == len(ports), ports
PY
then ok "cast-scan --status: every published device answers its Cast channel, each on a port of its own"
else notok "cast-scan --status of the published devices"; diag <"$tmp/channel.json"; diag <"$tmp/channel.err"; fi
exec 7>&-
kill -TERM "$pub_pid"; wait "$pub_pid" 2>/dev/null
done_testing
