#!/usr/bin/env bash
# deviceauth-lab-test.sh: device authentication against the lab's receivers, which answer the
# challenge from an implementation independent of cast-scan's (Scripts/lab/deviceauth.py:
# `cryptography` and Google's protobuf, with the lab's own root). Fixtures/lab/deviceauth.json
# has one device per mode (genuine, audioOnly, untrustedChain, badSignature, tlsLongLived,
# expiredIntermediate, revoked, noAnswer, authError, hostileMany, hostileNotDER, hostileHuge)
# and a device that takes the genuine one's friendly name with an untrusted chain. Each mode's
# verdict comes through `status --json`, `--status --json`, `watch --status --jsonl` and
# `serve --status` (Tests/Scripts/deviceauth-lab-check.py), with the lab's root given, and
# without it (the chains that would pass are untrustedChain); the impostor is named where
# devices have names. `status --save-auth` then `auth verify` give every device's verdict again.
# The hostile receivers cost one --timeout and bounded memory. `cast-scan publish`'s receivers
# are genuine with its --auth-root and untrustedChain without.
# Needs root. A lab that cannot start is a failure, never a skip.
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" deviceauth-lab-test
check=$here/Tests/Scripts/deviceauth-lab-check.py
TIMEOUT=2
test_cleanup() {
  local pid
  for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
}

build_cast_scan
lab_up "$here/Fixtures/lab/deviceauth.json"
"$castlab" status --json >"$tmp/lab.json"
root=$("$castlab" auth-root) || bail_out "castlab auth-root names the lab's root"
count=$("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["devices"]))' "$tmp/lab.json")
mapfile -t endpoints < <("$PY" -c '
import json, sys
for d in json.load(open(sys.argv[1]))["devices"]: print(d["ipv4"] + ":" + str(d["port"]))' "$tmp/lab.json")

# verdicts KIND FILE TRUST: the check's verdict on FILE, with the lab's root given (trusted) or
# not (untrusted).
verdicts() {
  local untrusted=(); [ "$3" = untrusted ] && untrusted=(--untrusted)
  "$PY" "$check" "$tmp/lab.json" "$2" --kind "$1" "${untrusted[@]}" >"$tmp/check.out" 2>&1
}

# status, with the lab's root and without; ends within --timeout and 1.5 s.
for trust in trusted untrusted; do
  roots=(--cast-root "$root"); [ "$trust" = untrusted ] && roots=()
  start=$(date +%s%N)
  "$castlab" exec "$bin" status --json --timeout "$TIMEOUT" "${roots[@]}" "${endpoints[@]}" >"$tmp/status.json" 2>"$tmp/status.err"
  rc=$?; ms=$(( ($(date +%s%N) - start) / 1000000 ))
  what="status --json ($trust): each of the $count devices' verdict as its mode calls for; exit 1"
  if [ "$rc" = 1 ] && verdicts status "$tmp/status.json" "$trust"; then ok "$what"
  else notok "$what (exit $rc)"; diag <"$tmp/check.out"; diag <"$tmp/status.err"; fi
  [ "$ms" -le $((TIMEOUT * 1000 + 1500)) ] && ok "status ($trust): $ms ms, within --timeout $TIMEOUT and 1.5 s" ||
    notok "status ($trust): $ms ms, more than --timeout $TIMEOUT and 1.5 s"
done

# The hostile receivers and the silent one: one --timeout, and bounded memory (peak RSS).
mapfile -t hostile < <("$PY" -c '
import json, sys
for d in json.load(open(sys.argv[1]))["devices"]:
    if d["receiver"]["auth"] in ("hostileMany", "hostileNotDER", "hostileHuge", "noAnswer"): print(d["ipv4"] + ":" + str(d["port"]))' "$tmp/lab.json")
"$castlab" exec "$PY" -c '
import resource, subprocess, sys, time
start = time.monotonic()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(code, int((time.monotonic() - start) * 1000), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
' "$bin" status --timeout "$TIMEOUT" "${hostile[@]}" >"$tmp/hostile" 2>&1
read -r rc ms mib <"$tmp/hostile"
if [ "$rc" = 1 ] && [ "$ms" -le $((TIMEOUT * 1000 + 1500)) ] && [ "$mib" -le 64 ]; then
  ok "the ${#hostile[@]} hostile and silent receivers: exit 1 in $ms ms (one --timeout $TIMEOUT), peak RSS $mib MiB (at most 64)"
else
  notok "the ${#hostile[@]} hostile and silent receivers: exit $rc in $ms ms (--timeout $TIMEOUT), peak RSS $mib MiB (at most 64)"
fi

# --save-auth, then auth verify of every saved answer: the same failure as status said.
"$castlab" exec "$bin" status --json --timeout "$TIMEOUT" --cast-root "$root" --save-auth "$tmp/saved" "${endpoints[@]}" \
  >"$tmp/saved.json" 2>"$tmp/saved.err"
if "$PY" - "$tmp/saved.json" "$bin" "$root" "$castlab" >"$tmp/verify.out" 2>&1 <<'PY'
import json, subprocess, sys
receivers = json.load(open(sys.argv[1]))["receivers"]
bad, checked = [], 0
for r in receivers:
    saved = r["auth"].get("saved")
    if not saved or not saved.get("response"):
        if r["auth"].get("failure") != "noResponse":
            bad.append(f"{r['host']}: nothing saved but {r['auth'].get('failure')}")
        continue
    out = subprocess.run([sys.argv[2], "auth", "verify", "--json", "--response", saved["response"],
                          "--tls-certificate", saved["tlsCertificate"], "--cast-root", sys.argv[3]],
                         capture_output=True, text=True)
    verified = json.loads(out.stdout)["auth"]
    want = 0 if r["auth"]["authenticated"] else 1
    if verified.get("failure") != r["auth"].get("failure") or out.returncode != want:
        bad.append(f"{r['host']}: auth verify {verified.get('failure')} (exit {out.returncode}), status {r['auth'].get('failure')}")
    checked += 1
print("\n".join(bad) or f"{checked} saved answers: auth verify agrees with status")
sys.exit(1 if bad or checked < len(receivers) - 1 else 0)
PY
then ok "status --save-auth, then auth verify: the same verdict for every saved answer"
else notok "status --save-auth, then auth verify: the same verdict for every saved answer"; diag <"$tmp/verify.out"; fi

# The listing: each device's receiver.auth, the impostor named.
for trust in trusted untrusted; do
  roots=(--cast-root "$root"); [ "$trust" = untrusted ] && roots=()
  "$castlab" exec "$bin" --status --json --timeout "$TIMEOUT" --state "$tmp/state.json" "${roots[@]}" \
    >"$tmp/list.json" 2>"$tmp/list.err"
  what="--status --json ($trust): each device's auth as its mode calls for, the impostor named"
  if verdicts listing "$tmp/list.json" "$trust"; then ok "$what"
  else notok "$what"; diag <"$tmp/check.out"; diag <"$tmp/list.err"; fi
done
"$castlab" exec "$bin" --status --timeout "$TIMEOUT" --state "$tmp/state.json" --cast-root "$root" >"$tmp/table" 2>&1
grep -q 'impostor: untrustedChain' "$tmp/table" && grep -q 'genuine, audio-only' "$tmp/table" &&
  ok "the table's AUTH column: genuine, audio-only, the impostor" ||
  { notok "the table's AUTH column: genuine, audio-only, the impostor"; diag <"$tmp/table"; }

# watch --status --jsonl: once every device has said authenticated or notAuthenticated (the
# silent one after the monitor's attempt time-out, 5 s).
"$castlab" exec "$bin" watch --status --jsonl --cast-root "$root" >"$tmp/watch.jsonl" 2>"$tmp/watch.err" &
watcher=$!
for _ in $(seq 300); do
  [ "$(grep -E '"event":"(authenticated|notAuthenticated)"' "$tmp/watch.jsonl" | grep -oE '"uniqueID":"[^"]*"' |
    sort -u | wc -l)" -ge "$count" ] && break
  sleep 0.1
done
kill -INT "$watcher" 2>/dev/null; wait "$watcher"
if verdicts watch "$tmp/watch.jsonl" trusted; then ok "watch --status --jsonl: authenticated / notAuthenticated for each device as its mode calls for"
else notok "watch --status --jsonl: authenticated / notAuthenticated for each device as its mode calls for"; diag <"$tmp/check.out"; fi

# serve --status: cast_device_authentication_info for every device, then promtool reads it.
port=$((20000 + RANDOM % 20000))
"$castlab" exec "$bin" serve --status --cast-root "$root" --listen "127.0.0.1:$port" >"$tmp/serve.out" 2>"$tmp/serve.err" &
server=$!
for _ in $(seq 300); do
  "$castlab" exec "$PY" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
    "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>/dev/null &&
    [ "$(grep -c '^cast_device_authentication_info{' "$tmp/metrics")" -ge "$count" ] && break
  sleep 0.1
done
if verdicts metrics "$tmp/metrics" trusted; then ok "serve --status: cast_device_authentication_info for each device as its mode calls for, the impostor named"
else notok "serve --status: cast_device_authentication_info for each device as its mode calls for, the impostor named"; diag <"$tmp/check.out"; diag <"$tmp/serve.err"; fi
[ "$(grep -c '^cast_device_authenticated{.*} 1$' "$tmp/metrics")" = 2 ] &&
  ok "serve --status: cast_device_authenticated is 1 for the two genuine devices only" ||
  notok "serve --status: cast_device_authenticated is 1 for $(grep -c '^cast_device_authenticated{.*} 1$' "$tmp/metrics") devices, not 2"
if promtool check metrics <"$tmp/metrics" >"$tmp/promtool" 2>&1; then ok "serve --status: promtool check metrics reads the scrape"
else notok "serve --status: promtool check metrics reads the scrape"; diag <"$tmp/promtool"; fi
kill -TERM "$server" 2>/dev/null; wait "$server"

# cast-scan publish: genuine with the root it writes (--auth-root), untrustedChain without.
"$castlab" publisher start >"$tmp/pubhost" 2>&1 || { diag <"$tmp/pubhost"; bail_out "castlab publisher start"; }
"$castlab" publisher exec "$bin" publish --interface eth0 --auth-root "$tmp/publish-root.pem" \
  "$here/Fixtures/publish/receivers.json" >"$tmp/publish.out" 2>"$tmp/publish.err" &
publisher=$!
for _ in $(seq 300); do [ -s "$tmp/publish-root.pem" ] && grep -q " published " "$tmp/publish.out" && break; sleep 0.1; done
published=$(grep -c " published " "$tmp/publish.out")
for trust in trusted untrusted; do
  roots=(--cast-root "$tmp/publish-root.pem"); [ "$trust" = untrusted ] && roots=()
  for _ in $(seq 100); do
    "$castlab" exec "$bin" --status --json --timeout 3 --state "$tmp/state.json" "${roots[@]}" >"$tmp/pub.json" 2>/dev/null
    "$PY" - "$tmp/pub.json" "$trust" >"$tmp/pub.out" 2>&1 <<'PY' && break
import json, sys
devices = [d for d in json.load(open(sys.argv[1]))["devices"] if d["friendlyName"].endswith(" (simulated)")]
want = "genuine" if sys.argv[2] == "trusted" else "untrustedChain"
got = {d["friendlyName"]: (d["receiver"]["auth"].get("failure") or "genuine", d["receiver"]["auth"]["audioOnly"]) for d in devices}
print(got)
assert len(devices) == 4 and all(v[0] == want for v in got.values()), got
if want == "genuine":
    assert got["Test Kitchen (simulated)"][1] and not got["Test Lounge TV (simulated)"][1], got
PY
    sleep 0.2
  done
  what="publish's $published receivers: $([ "$trust" = trusted ] && echo "genuine with --auth-root's root, the speakers audio-only" || echo "untrustedChain without it")"
  "$PY" - "$tmp/pub.json" "$trust" >/dev/null 2>&1 <<'PY' && ok "$what" || { notok "$what"; diag <"$tmp/pub.out"; diag <"$tmp/publish.err"; }
import json, sys
devices = [d for d in json.load(open(sys.argv[1]))["devices"] if d["friendlyName"].endswith(" (simulated)")]
want = "genuine" if sys.argv[2] == "trusted" else "untrustedChain"
assert len(devices) == 4 and all((d["receiver"]["auth"].get("failure") or "genuine") == want for d in devices)
PY
done
kill -INT "$publisher" 2>/dev/null; wait "$publisher"
"$castlab" publisher stop >/dev/null 2>&1
done_testing
