#!/usr/bin/env bash
# unprivileged-lab-test.sh: cast-scan as an ordinary user beside an avahi-daemon that dropped
# root, as on a real system (the daemon runs as avahi, cast-scan as the logged-in user; here
# nobody). The lab (Fixtures/lab/real-world.json) starts with CASTLAB_AVAHI_DROP_ROOT=1, and
# every cast-scan runs as `setpriv --reuid=nobody --regid=nogroup --clear-groups`:
#   - --backend mdns beside the daemon: every device. Proof that port 5353 is shared across
#     the two users: `ss -ulpn` in the sender, while a watch of nobody's runs, lists that
#     cast-scan and avahi-daemon on 0.0.0.0:5353 and on [::]:5353, and a TXT change the device
#     announces (multicast to port 5353, which no legacy-unicast socket receives) reaches the
#     watch within 3 s. The querier's packetsReceived is no proof: its legacy-unicast socket
#     receives answers too, with or without 5353;
#   - --backend avahi and --backend auto: every device (D-Bus as nobody, avahi-daemon's name
#     owned by avahi); auto's backend and reason are printed;
#   - port 5353 that cannot be shared: Scripts/lab/hold-5353.py, as the avahi user, binds
#     0.0.0.0:5353 and [::]:5353 with SO_REUSEPORT and without SO_REUSEADDR after the daemon
#     started. The daemon keeps running (its sockets set both options, and the holder is of its
#     user), but nobody's sockets cannot bind 5353 (checked with ss): --backend mdns and
#     --backend auto must still list every device; what they print is shown.
# Needs root, the avahi user (the avahi-daemon package) and nobody/nogroup. A lab that cannot
# start is a failure, never a skip. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" unprivileged-lab-test

# ---- Set these when `auto` runs the querier beside avahi-daemon (issue 25) ---------------
# The backend `--backend auto` must report beside a running daemon. Empty: avahi or
# mdns+avahi are accepted (and printed).
EXPECTED_AUTO_BACKEND=mdns+avahi
# A grep -E pattern scan.backendReason of `--backend auto` must match when port 5353 cannot be
# shared. Empty: the reason is printed, not checked.
EXPECTED_FALLBACK_REASON_PATTERN="cannot run beside it: port 5353 cannot be shared"
# ------------------------------------------------------------------------------------------

FIXTURE="$here/Fixtures/lab/real-world.json"
USER_ARGS=(--reuid=nobody --regid=nogroup --clear-groups)
bg_pids=()     # processes this script started in the lab (watches, the port holder), by PID
own_dirs=()    # directories this script made for nobody

test_cleanup() {
  local p
  for p in "${bg_pids[@]+"${bg_pids[@]}"}"; do
    kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null
  done
  for p in "${own_dirs[@]+"${own_dirs[@]}"}"; do rm -rf "$p"; done
}

# ---------------------------------------------------------------- users, binary
if id -u avahi >/dev/null 2>&1 && getent group avahi >/dev/null; then
  ok "the avahi user and group exist (uid $(id -u avahi))"
else
  bail_out "no avahi user or group (the avahi-daemon package makes them; run: Scripts/setup --lab)"
fi
if ! id -u nobody >/dev/null 2>&1 || ! getent group nogroup >/dev/null; then
  bail_out "no nobody user or nogroup group to run cast-scan as"
fi
build_cast_scan

# nobody's home and state: a directory of its own (the scratch $tmp is root's, 0700).
home=$(mktemp -d /tmp/unprivileged-lab-home.XXXXXX); own_dirs+=("$home")
chown nobody:nogroup "$home"
as_nobody() { setpriv "${USER_ARGS[@]}" env HOME="$home" XDG_STATE_HOME="$home/state" "$@"; }

# nobody must be able to reach, read and run the binary (and the toolchain's libraries a debug
# build links); a copy in a directory of ours when the build folder is not traversable.
if ! as_nobody "$bin" --version >"$tmp/version" 2>&1; then
  bindir=$(mktemp -d /tmp/unprivileged-lab-bin.XXXXXX); own_dirs+=("$bindir")
  chmod 0755 "$bindir"
  install -m 0755 "$bin" "$bindir/cast-scan"
  echo "# nobody cannot run $bin ($(head -c 200 "$tmp/version")); using a copy in $bindir" >&2
  bin="$bindir/cast-scan"
fi
if as_nobody "$bin" --version >"$tmp/version" 2>&1; then
  ok "nobody can run cast-scan ($bin: $(cat "$tmp/version"))"
else
  diag <"$tmp/version"; bail_out "nobody cannot run cast-scan"
fi

# ---------------------------------------------------------------- the lab, daemon as avahi
CASTLAB_AVAHI_DROP_ROOT=1 lab_up "$FIXTURE"
"$castlab" status --json >"$tmp/lab.json"
daemon_pid=$(awk '$1 == "avahi" {print $2}' "$CASTLAB_STATE/pids" | tail -n1)
daemon_user=$(ps -o user= -p "${daemon_pid:-0}" 2>/dev/null | tr -d ' ')
daemon_comm=$(cat "/proc/${daemon_pid:-0}/comm" 2>/dev/null)
if [ "$daemon_user" = avahi ] && [ "$daemon_comm" = avahi-daemon ]; then
  ok "the sender's avahi-daemon runs as avahi, with the PID castlab recorded ($daemon_pid)"
else
  ps -eo user,pid,cmd | grep '[a]vahi-daemon' | diag
  bail_out "the sender's avahi-daemon runs as avahi (recorded PID '${daemon_pid:-none}': user '${daemon_user:-gone}', command '${daemon_comm:-gone}')"
fi

# scan NAME ARGS...: a one-shot scan as nobody; JSON in $tmp/NAME.json, stderr in
# $tmp/NAME.err, the exit status in $tmp/NAME.rc.
scan() {
  local name=$1; shift
  "$castlab" exec setpriv "${USER_ARGS[@]}" env HOME="$home" XDG_STATE_HOME="$home/state" \
    "$bin" --state "$home/state-$name.json" --json --timeout 5 "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
  echo $? >"$tmp/$name.rc"
}

# check_all NAME [BACKEND]: exit 0, a complete scan, every lab device with its host, port, lab
# addresses and TXT; prints a one-line summary (backend, reason, statistics).
check_all() {
  "$PY" - "$tmp/$1.json" "$tmp/lab.json" "$(cat "$tmp/$1.rc")" "${2:-}" <<'PY'
import json, sys
rc = sys.argv[3]
assert rc == "0", "exit %s" % rc
scan = json.load(open(sys.argv[1])); lab = json.load(open(sys.argv[2]))["devices"]
s = scan["scan"]
if sys.argv[4]:
    assert s["backend"] == sys.argv[4], ("backend", s["backend"], s.get("backendReason"))
got = {d["instanceName"]: d for d in scan["devices"]}
want = {d["instance"]: d for d in lab}
missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
assert not missing and not extra, ("missing", missing, "extra", extra)
for name, d in want.items():
    g = got[name]
    assert (g["hostName"], g["port"]) == (d["host"], d["port"]), (name, g["hostName"], g["port"])
    addrs = {a["address"].split("%")[0] for a in g["addresses"]}
    assert {d["ipv4"], d["ipv6"]} <= addrs, (name, sorted(addrs))
    assert g["txt"] == d["txt"], (name, g["txt"], d["txt"])
assert s["complete"], "the scan did not complete"
print("%d of %d devices; backend %s (%s); statistics %s" % (
    len(got), len(want), s.get("backend"), s.get("backendReason"), json.dumps(s.get("statistics"), sort_keys=True)))
PY
}

# report NAME WHAT [BACKEND]: ok/notok for check_all, with the run's stderr when it failed.
report() {
  local out
  if out=$(check_all "$1" "${3:-}" 2>&1); then
    ok "$2: $out"
  else
    notok "$2: $(echo "$out" | tail -n1)"; diag <"$tmp/$1.err"
  fi
}

# field NAME KEY: scan.KEY of a run's JSON (empty when absent or unreadable).
field() {
  "$PY" -c 'import json,sys
v = json.load(open(sys.argv[1]))["scan"].get(sys.argv[2])
print(v if isinstance(v, str) else "" if v is None else json.dumps(v, sort_keys=True))' "$tmp/$1.json" "$2" 2>/dev/null
}

# describe NAME: what a run printed, as diagnostics (exit status, stderr, backend, reason).
describe() {
  echo "#   $1: exit $(cat "$tmp/$1.rc"); stderr: [$(tr '\n' ' ' <"$tmp/$1.err" | head -c 400)]"
  echo "#   $1: scan.backend=$(field "$1" backend) scan.backendReason=$(field "$1" backendReason)"
  echo "#   $1: scan.statistics=$(field "$1" statistics)"
}

# sockets_5353: the sender's UDP sockets on port 5353, "ADDRESS PROCESS PID" per line.
sockets_5353() {
  ip netns exec "${CASTLAB_PREFIX}sender" ss -Hulpn 'sport = :5353' |
    sed -n 's/^[A-Z]* *[0-9]* *[0-9]* *\([^ ]*\):5353 .*users:(("\([^"]*\)",pid=\([0-9]*\),.*/\1 \2 \3/p'
}

# start_watch NAME ARGS...: `cast-scan watch --jsonl ARGS` as nobody in the background; waits
# until its first scan completes (at most 10 s). Sets watch_pid.
start_watch() {
  local name=$1 i; shift
  "$castlab" exec setpriv "${USER_ARGS[@]}" env HOME="$home" XDG_STATE_HOME="$home/state" \
    "$bin" watch --jsonl "$@" >"$tmp/$name.jsonl" 2>"$tmp/$name.err" &
  watch_pid=$!; bg_pids+=("$watch_pid")
  for i in $(seq 100); do
    grep -q '"scanCompleted"' "$tmp/$name.jsonl" 2>/dev/null && return 0
    kill -0 "$watch_pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

stop_watch() { # -> the watch's exit status
  kill -TERM "$watch_pid" 2>/dev/null; wait "$watch_pid"; local rc=$?
  bg_pids=("${bg_pids[@]/$watch_pid}"); return $rc
}

# txt_seen NAME INSTANCE VALUE SECONDS: the watch reports INSTANCE updated with rs=VALUE within
# SECONDS of the set-txt. The lab's list ($tmp/lab.json) then holds the new TXT.
txt_seen() {
  local i
  "$castlab" set-txt "$2" "rs=$3" >/dev/null 2>&1 || return 2
  "$castlab" status --json >"$tmp/lab.json"
  for i in $(seq $(($4 * 10))); do
    "$PY" - "$tmp/$1.jsonl" "$2" "rs=$3" <<'PY' && return 0
import json, sys
for line in open(sys.argv[1]):
    try: e = json.loads(line)
    except ValueError: continue
    d = e.get("device") or {}
    if e.get("event") == "updated" and d.get("instanceName") == sys.argv[2] and sys.argv[3] in d.get("txt", []):
        sys.exit(0)
sys.exit(1)
PY
    sleep 0.1
  done
  return 1
}

instance=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["devices"][0]["instance"])' "$tmp/lab.json")

# ---------------------------------------------------------------- port 5353 shared
scan mdns --backend mdns
report mdns "--backend mdns as nobody beside avahi-daemon (as avahi)" mdns

if start_watch shared --backend mdns; then
  sockets_5353 >"$tmp/ss-shared"
  sed 's/^/#   ss: /' "$tmp/ss-shared" >&2
  watch_user=$(ps -o user= -p "$watch_pid" 2>/dev/null | tr -d ' ')
  want=$(printf '%s\n' "0.0.0.0 avahi-daemon $daemon_pid" "0.0.0.0 cast-scan $watch_pid" \
    "[::] avahi-daemon $daemon_pid" "[::] cast-scan $watch_pid" | sort)
  if [ "$watch_user" = nobody ] && [ "$(sort -u "$tmp/ss-shared")" = "$want" ]; then
    ok "port 5353 shared across users: ss lists avahi-daemon ($daemon_pid, avahi) and cast-scan ($watch_pid, nobody) on 0.0.0.0:5353 and [::]:5353, and nothing else"
  else
    notok "port 5353 shared across users: want avahi-daemon ($daemon_pid) and cast-scan ($watch_pid, user '${watch_user:-gone}') on both families"
    echo "$want" | sed 's/^/want: /' | diag
  fi
  if txt_seen shared "$instance" Shared 3; then
    ok "a TXT change announced by multicast reaches nobody's querier on 5353 within 3 s"
  else
    notok "a TXT change announced by multicast did not reach nobody's watch within 3 s"; diag <"$tmp/shared.err"
  fi
  stop_watch; rc=$?
  [ "$rc" = 0 ] && ok "the watch ends with 0 on SIGTERM" || { notok "the watch ends with 0 on SIGTERM (got $rc)"; diag <"$tmp/shared.err"; }
else
  notok "watch --backend mdns as nobody: no completed scan within 10 s"; diag <"$tmp/shared.err"
  stop_watch
fi

# ---------------------------------------------------------------- D-Bus as nobody
scan avahi --backend avahi
report avahi "--backend avahi as nobody (D-Bus to avahi-daemon running as avahi)" avahi

scan auto --backend auto
auto_backend=$(field auto backend)
echo "# auto beside the daemon: scan.backend=$auto_backend scan.backendReason=$(field auto backendReason)"
if [ -n "$EXPECTED_AUTO_BACKEND" ]; then
  report auto "--backend auto as nobody (expected backend $EXPECTED_AUTO_BACKEND)" "$EXPECTED_AUTO_BACKEND"
else
  report auto "--backend auto as nobody"
  case "$auto_backend" in
    avahi|mdns+avahi) ok "auto beside the daemon chose '$auto_backend' (avahi or mdns+avahi accepted until EXPECTED_AUTO_BACKEND is set)" ;;
    *) notok "auto beside the daemon chose '$auto_backend' (want avahi or mdns+avahi)" ;;
  esac
fi

# ---------------------------------------------------------------- port 5353 not shared
# The holder binds as avahi, with SO_REUSEPORT and without SO_REUSEADDR, after the daemon.
ip netns exec "${CASTLAB_PREFIX}sender" setpriv --reuid=avahi --regid=avahi --clear-groups \
  /usr/bin/python3 -u "$here/Scripts/lab/hold-5353.py" --reuseport >"$tmp/holder.out" 2>&1 &
holder_pid=$!; bg_pids+=("$holder_pid")
for i in $(seq 50); do grep -q 'holding' "$tmp/holder.out" && break; sleep 0.1; done
if grep -q 'IPv4 bound' "$tmp/holder.out" && grep -q 'IPv6 bound' "$tmp/holder.out"; then
  ok "hold-5353.py (as avahi, SO_REUSEPORT only) binds 0.0.0.0:5353 and [::]:5353 beside the daemon"
else
  notok "hold-5353.py could not hold port 5353 beside the daemon"; diag <"$tmp/holder.out"
fi
if ps -o user= -p "$daemon_pid" >/dev/null 2>&1 && sockets_5353 | grep -q "avahi-daemon $daemon_pid"; then
  ok "avahi-daemon ($daemon_pid) still runs and holds 5353 beside the holder"
else
  notok "avahi-daemon ($daemon_pid) no longer runs or holds 5353"
fi

if start_watch blocked --backend mdns; then
  sockets_5353 >"$tmp/ss-blocked"
  sed 's/^/#   ss: /' "$tmp/ss-blocked" >&2
  if grep -q "cast-scan" "$tmp/ss-blocked"; then
    notok "with the holder, nobody's querier still bound 5353: the arrangement blocks nothing"
  else
    ok "with the holder, nobody's querier cannot bind 5353 (ss lists no cast-scan on it)"
  fi
  echo "#   blocked watch stderr: $(tr '\n' ' ' <"$tmp/blocked.err" | head -c 400)" >&2
  if txt_seen blocked "$instance" Blocked 3; then seen=yes; else seen=no; fi
  echo "#   blocked: a TXT change reached the mdns watch within 3 s: $seen (only announcements to 5353 carry it)" >&2
  stop_watch
else
  notok "watch --backend mdns as nobody with 5353 held: no completed scan within 10 s"; diag <"$tmp/blocked.err"
  stop_watch
fi

scan blocked-mdns --backend mdns
report blocked-mdns "5353 held: --backend mdns as nobody still lists every device"
describe blocked-mdns >&2

scan blocked-auto --backend auto
report blocked-auto "5353 held: --backend auto as nobody lists every device"
describe blocked-auto >&2
reason=$(field blocked-auto backendReason)
echo "# auto with 5353 held: scan.backend=$(field blocked-auto backend) scan.backendReason=$reason"
if [ -n "$EXPECTED_FALLBACK_REASON_PATTERN" ]; then
  if grep -Eq -- "$EXPECTED_FALLBACK_REASON_PATTERN" <<<"$reason"; then
    ok "auto's reason with 5353 held matches /$EXPECTED_FALLBACK_REASON_PATTERN/"
  else
    notok "auto's reason with 5353 held ('$reason') does not match /$EXPECTED_FALLBACK_REASON_PATTERN/"
  fi
fi

[ "$(field blocked-auto backend)" = avahi ] && ok "5353 held: auto falls back to the daemon alone" \
  || notok "5353 held: auto ran $(field blocked-auto backend), not the daemon alone"
"$castlab" exec setpriv "${USER_ARGS[@]}" env HOME="$home" XDG_STATE_HOME="$home/state" "$bin" doctor >"$tmp/doctor-blocked.txt" 2>&1
if grep -q "^note mdns querier: port 5353 cannot be shared" "$tmp/doctor-blocked.txt" \
  && grep -q "auto chooses avahi: .*cannot run beside it" "$tmp/doctor-blocked.txt"; then
  ok "5353 held: doctor says the port cannot be shared and that auto uses the daemon alone"
else
  notok "5353 held: doctor does not say why auto uses the daemon alone"; diag <"$tmp/doctor-blocked.txt"
fi

kill -TERM "$holder_pid" 2>/dev/null; wait "$holder_pid" 2>/dev/null
bg_pids=("${bg_pids[@]/$holder_pid}")

# ---------------------------------------------------------------- clean up
"$castlab" down >"$tmp/down" 2>&1; rc=$?
started=0
left=$(castlab_namespaces | tr '\n' ' ')
alive=""
for p in "$daemon_pid" "${bg_pids[@]+"${bg_pids[@]}"}"; do
  [ -n "$p" ] && [ -d "/proc/$p" ] && [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" != Z ] && alive="$alive $p"
done
if [ "$rc" = 0 ] && [ -z "$left" ] && [ -z "$alive" ]; then
  ok "castlab down: no namespace of the lab left, the daemon and this script's processes ended"
else
  notok "castlab down (exit $rc): namespaces left: '${left}', processes alive: '${alive}'"; diag <"$tmp/down"
fi
done_testing
