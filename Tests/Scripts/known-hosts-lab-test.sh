#!/usr/bin/env bash
# known-hosts-lab-test.sh: cast-scan --host in a sender namespace where multicast is switched off
# on its interface and no daemon runs. Checks that --host lists exactly the devices the host
# answers for, with the same fields as a multicast scan of the same lab (and source "host");
# that --backend hosts asks only the hosts; that a host that does not answer and an address
# that is no address give their documented output and exit codes; and that a watch removes a
# host's devices when it stops answering (its answers dropped on the bridge) and lists them
# again when it answers.
# Needs root. A lab that cannot start is a failure, never a skip. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" known-hosts-lab-test
watcher=""
test_cleanup() { [ -z "$watcher" ] || kill -TERM "$watcher" 2>/dev/null; }
build_cast_scan
lab_up "$here/Fixtures/lab/real-world.json"
scan() { "$castlab" exec "$bin" --state "$tmp/state-$RANDOM.json" "$@"; }
"$castlab" status --json >"$tmp/lab.json"

# The reference: a multicast scan of the whole lab, before multicast goes.
scan --json --backend mdns >"$tmp/multicast.json" 2>"$tmp/multicast.err" || { notok "the multicast reference scan"; diag <"$tmp/multicast.err"; }
# The host to ask: the address with the most devices (a group leader's host answers for its groups).
host=$("$PY" -c 'import json, sys, collections
c = collections.Counter(d["ipv4"] for d in json.load(open(sys.argv[1]))["devices"] if d.get("ipv4"))
print(c.most_common(1)[0][0])' "$tmp/lab.json")
expected=$("$PY" -c 'import json, sys
print(" ".join(sorted(d["instance"] for d in json.load(open(sys.argv[1]))["devices"] if d.get("ipv4") == sys.argv[2])))' "$tmp/lab.json" "$host")
echo "# asking $host, which the lab says has: $expected" >&2

# With multicast: one device per service however it was found, the host's marked as such.
scan --json --backend mdns --host "$host" >"$tmp/both.json" 2>"$tmp/both.err"
if out=$("$PY" - "$tmp/both.json" "$tmp/multicast.json" "$host" "$expected" <<'PY' 2>&1
import json, sys
got = json.load(open(sys.argv[1]))["devices"]
ref = json.load(open(sys.argv[2]))["devices"]
host, expected = sys.argv[3], set(sys.argv[4].split())
names = [d["instanceName"] for d in got]
assert sorted(names) == sorted(d["instanceName"] for d in ref), f"{len(names)} listed, multicast alone {len(ref)}"
assert len(set(d["uniqueID"] for d in got)) == len(got), "a device listed twice"
for d in got:
    assert (d.get("knownHost") == host) == (d["instanceName"] in expected), (d["instanceName"], d.get("knownHost"))
    addrs = [(a["family"], a["address"]) for a in d["addresses"]]
    assert len(addrs) == len(set(addrs)), f"{d['instanceName']}: an address twice: {addrs}"
print(len(got))
PY
); then
  ok "--host beside multicast: each of the $out devices once, the host's with knownHost, no address twice"
else
  notok "--host beside multicast"; { cat "$tmp/both.err"; echo "$out"; } | diag
fi

# No daemon, no D-Bus, no multicast on the sender's interface.
"$castlab" bus stop >/dev/null 2>&1
ip -n "${CASTLAB_PREFIX}sender" link set lab0 multicast off
# A listing that can ask no network by multicast refuses (69) and names the interface.
scan --json --backend mdns --timeout 2 >"$tmp/none.json" 2>"$tmp/none.err"; rc=$?
if [ "$rc" = 69 ] && [ ! -s "$tmp/none.json" ] &&
   grep -qx "cast-scan: no network interface with multicast is up: .*lab0 has multicast off.* (see cast-scan doctor)" "$tmp/none.err"; then
  ok "multicast is off: a listing by the mDNS querier exits 69, naming lab0 (nothing to ask by multicast)"
else
  notok "multicast is off: exit $rc, not 69 with lab0 named (if the querier still listed, the test would prove nothing)"
  cat "$tmp/none.err" "$tmp/none.json" | diag
fi

# check FILE: exactly the host's devices, each with the multicast scan's fields, source "host".
check() {
  "$PY" - "$1" "$tmp/multicast.json" "$host" "$expected" <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))["devices"]
ref = {d["instanceName"]: d for d in json.load(open(sys.argv[2]))["devices"]}
host, expected = sys.argv[3], sys.argv[4].split()
names = sorted(d["instanceName"] for d in got)
assert names == sorted(expected), f"listed {names}, the host has {sorted(expected)}"
for d in got:
    r = ref[d["instanceName"]]
    for field in ("uniqueID", "deviceID", "friendlyName", "modelName", "kind", "status", "capabilities", "hostName", "port", "txt"):
        assert d[field] == r[field], f"{d['instanceName']}: {field} {d[field]!r} != multicast {r[field]!r}"
    assert d["source"] == "host" and d["knownHost"] == host, (d["source"], d.get("knownHost"))
    assert r["source"] == "multicast", r["source"]
    assert host in [a["address"] for a in d["addresses"]], d["addresses"]
print(len(got))
PY
}

scan --json --host "$host" >"$tmp/host.json" 2>"$tmp/host.err"; rc=$?
if [ "$rc" = 0 ] && out=$(check "$tmp/host.json" 2>&1); then
  ok "--host $host (multicast off, no daemon): exactly its $out devices, the multicast scan's fields, source host"
else
  notok "--host $host: exit $rc"; { cat "$tmp/host.err"; echo "$out"; } | diag
fi
backend=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["scan"]["backend"])' "$tmp/host.json" 2>/dev/null)
[ "$backend" = "mdns+hosts" ] && ok "--host adds to multicast discovery (backend $backend)" || notok "--host: backend $backend, not mdns+hosts"

scan --json --backend hosts --host "$host" >"$tmp/only.json" 2>"$tmp/only.err"; rc=$?
if [ "$rc" = 0 ] && out=$(check "$tmp/only.json" 2>&1); then
  ok "--backend hosts --host $host: the same $out devices"
else
  notok "--backend hosts: exit $rc"; { cat "$tmp/only.err"; echo "$out"; } | diag
fi
scan --backend hosts --host "$host" >"$tmp/only.txt" 2>&1
grep -E "^[0-9]+ devices? \(scan complete" "$tmp/only.txt" >/dev/null && ok "the table output ends with the count" || { notok "--backend hosts table"; diag <"$tmp/only.txt"; }

# A host that does not answer: an unused lab address.
silent=10.213.0.250
start=$(date +%s%N)
scan --backend hosts --host "$silent" >"$tmp/silent.out" 2>"$tmp/silent.err"; rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$rc" = 0 ] && grep -qx "cast-scan: no answer from host $silent (DNS-SD by unicast to port 5353)" "$tmp/silent.err" &&
   [ "$(grep -c "no answer" "$tmp/silent.err")" = 1 ] && grep -q "^0 devices" "$tmp/silent.out"; then
  ok "a host that does not answer: one line naming it, 0 devices, exit 0 (after $ms ms)"
else
  notok "a host that does not answer: exit $rc"; cat "$tmp/silent.out" "$tmp/silent.err" | diag
fi
scan --backend hosts --host "$silent" --fail-if-empty >/dev/null 2>&1; rc=$?
[ "$rc" = 1 ] && ok "a host that does not answer, --fail-if-empty: exit 1" || notok "--fail-if-empty with a silent host: exit $rc"
scan --json --host "$silent" --host "$host" >"$tmp/mixed.json" 2>/dev/null
if "$PY" -c 'import json,sys; s=json.load(open(sys.argv[1])); assert s["scan"]["statistics"]["unansweredHosts"] == [sys.argv[2]], s["scan"]["statistics"]' "$tmp/mixed.json" "$silent" 2>"$tmp/mixed.err" &&
   check "$tmp/mixed.json" >/dev/null 2>>"$tmp/mixed.err"; then
  ok "a silent host beside an answering one: the answering one's devices, the silent one in statistics.unansweredHosts"
else
  notok "a silent host beside an answering one"; diag <"$tmp/mixed.err"
fi

# Addresses that are no address: usage errors naming --host.
for bad in 999.1.1.1 "not a host" "$(printf 'tv\033[2J')" ""; do
  scan --backend hosts --host "$bad" >"$tmp/bad.out" 2>"$tmp/bad.err"; rc=$?
  if [ "$rc" = 64 ] && [ ! -s "$tmp/bad.out" ] && grep -q -- "--host" "$tmp/bad.err" && ! grep -q $'\033' "$tmp/bad.err"; then
    ok "--host $(printf %q "$bad"): exit 64, one clear line"
  else
    notok "--host $(printf %q "$bad"): exit $rc"; diag <"$tmp/bad.err"
  fi
done
scan --backend hosts >"$tmp/nohost.out" 2>"$tmp/nohost.err"; rc=$?
[ "$rc" = 64 ] && grep -q -- "--host" "$tmp/nohost.err" && ok "--backend hosts without --host: exit 64" || { notok "--backend hosts without --host: exit $rc"; diag <"$tmp/nohost.err"; }

# A watch: devices go when the host stops answering (two rounds), come back when it answers.
count_events() { grep -c "\"event\":\"$1\"" "$tmp/watch.jsonl" 2>/dev/null || true; }
n=$(echo "$expected" | wc -w)
"$castlab" exec "$bin" watch --backend hosts --host "$host" --host-interval 1 --jsonl >"$tmp/watch.jsonl" 2>"$tmp/watch.err" &
watcher=$!
wait_count() { # EVENT N SECONDS
  local i
  for i in $(seq $(( $3 * 10 ))); do [ "$(count_events "$1")" -ge "$2" ] && return 0; sleep 0.1; done
  return 1
}
if wait_count inserted "$n" 10; then ok "watch --backend hosts lists the host's $n devices"; else notok "watch: $(count_events inserted) of $n inserted"; fi
"$castlab" loss 100 >/dev/null 2>&1
t0=$(date +%s)
if wait_count removed "$n" 15; then
  ok "watch: the host stopped answering, its $n devices were removed (within $(( $(date +%s) - t0 )) s)"
else
  notok "watch: $(count_events removed) of $n removed after the host stopped answering"
fi
grep -q '"event":"hostUnanswered"' "$tmp/watch.jsonl" && ok "watch says the host does not answer" || notok "watch: no hostUnanswered line"
"$castlab" loss 0 >/dev/null 2>&1
if wait_count inserted $(( n * 2 )) 15; then
  ok "watch: the host answers again, its devices are back"
else
  notok "watch: $(( $(count_events inserted) - n )) of $n back after the host answered again"
fi
kill -INT "$watcher" 2>/dev/null; wait "$watcher"; rc=$?; watcher=""
[ "$rc" = 0 ] && ok "watch ends with exit 0 on SIGINT" || notok "watch exit $rc on SIGINT"
ip -n "${CASTLAB_PREFIX}sender" link set lab0 multicast on 2>/dev/null
done_testing
