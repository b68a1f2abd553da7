#!/usr/bin/env bash
# peer-packets-test.sh: the DNS decoder on packets from real devices that another project keeps:
#  - Tests/Scripts/peer-packets.py fetches python-zeroconf's pinned sdist (sha256 checked; kept
#    in .build/peer-packets-cache), takes the packets of its tests/test_protocol.py (an Android
#    TV, Sonos, eufy, Matter, a Thread border router, and packets made to break parsers) and
#    writes each that python-zeroconf reads something from, with what it reads, into a
#    temporary folder (removed at the end): they are never kept in this repository;
#  - DNSPeerPacketTests reads them (CAST_PEER_PACKETS): each decodes leniently to the questions
#    and records python-zeroconf reads, in order, no record more or less;
#  - the check can fail: with one packet's expected record changed, the same tests fail.
# The venv: the lab's (Scripts/lab-venv, $CASTLAB_VENV or .build/lab-venv), made when missing.
# CAST_SCAN_BIN_DIR set (make test: the tests were built by swift test): no build. SWIFT_SCRATCH_PATH
# set: swift builds and tests there instead of .build (a build of one's own beside others').
# Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
venv=${CASTLAB_VENV:-$here/.build/lab-venv}
. "$here/Tests/Scripts/tap-lib.sh" peer-packets
cd "$here"
scratch=()
[ -z "${SWIFT_SCRATCH_PATH:-}" ] || scratch=(--scratch-path "$SWIFT_SCRATCH_PATH")

if "$here/Scripts/lab-venv" >"$tmp/venv.log" 2>&1; then
  ok "the lab's venv ($venv) has python-zeroconf $("$venv/bin/python" -c 'import zeroconf; print(zeroconf.__version__)')"
else
  cat "$tmp/venv.log" >&2; bail_out "the lab's venv ($venv) could not be made"
fi

if [ -z "${CAST_SCAN_BIN_DIR:-}" ] && ! swift build --build-tests "${scratch[@]}" >"$tmp/build.log" 2>&1; then
  cat "$tmp/build.log" >&2; bail_out "the tests do not build"
fi

if "$venv/bin/python" Tests/Scripts/peer-packets.py --out "$tmp/packets" >"$tmp/fetch.log" 2>&1; then
  cat "$tmp/fetch.log"
  ok "python-zeroconf's packets fetched and read by python-zeroconf"
else
  cat "$tmp/fetch.log" >&2; bail_out "python-zeroconf's packets could not be had"
fi
count=$(find "$tmp/packets" -name '*.json' | wc -l)

# run_suite DIR LOG: DNSPeerPacketTests on the packets in DIR.
run_suite() {
  CAST_PEER_PACKETS=$1 swift test --skip-build "${scratch[@]}" --filter DNSPeerPacketTests >"$2" 2>&1
}
# ran LOG: the suite's 3 tests ran and passed, none skipped (the suite is off without
# CAST_PEER_PACKETS), each parameterised one on every packet.
ran() {
  grep -q "Test run with 3 tests in 1 suite passed" "$1" && ! grep -qE "^[^ ]+ (Suite|Test) .* skipped" "$1" &&
    [ "$(grep -cE "^[^ ]+ Test \".*\" with $count test cases passed" "$1")" = 2 ]
}
if run_suite "$tmp/packets" "$tmp/run.log" && ran "$tmp/run.log"; then
  ok "each of $count packets decodes to the questions and records python-zeroconf reads (3 tests)"
else
  grep -E "✘|error|skipped|Test run" "$tmp/run.log" | head -40 >&2
  notok "the decoder on python-zeroconf's $count packets"
fi

# The check can fail: the first record of a compared type (A, PTR, TXT, AAAA, SRV, NSEC) has
# its TTL changed, in a copy of its packet alone. The mutant must exist and differ from its
# packet in that TTL only, and the run must fail in the record comparison, naming that packet
# and the changed TTL: a run that fails for another reason proves nothing.
mkdir "$tmp/broken"
if mutant=$("$venv/bin/python" - "$tmp/packets" "$tmp/broken" <<'PY'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    doc = json.load(open(os.path.join(src, name)))
    compared = [r for r in doc["expected"]["records"] if r["type"] in (1, 12, 16, 28, 33, 47)]
    if compared:
        compared[0]["ttl"] += 1
        json.dump(doc, open(os.path.join(dst, name), "w"))
        print(name, compared[0]["ttl"])
        break
PY
) && read -r mutant_file mutant_ttl <<<"$mutant" && [ -n "${mutant_ttl:-}" ] &&
  [ "$(ls "$tmp/broken")" = "$mutant_file" ] && "$venv/bin/python" - "$tmp/packets/$mutant_file" "$tmp/broken/$mutant_file" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
a_records, b_records = a["expected"].pop("records"), b["expected"].pop("records")
assert a == b and len(a_records) == len(b_records), "more than the records changed"
changed = [(x, y) for x, y in zip(a_records, b_records) if x != y]
assert len(changed) == 1, changed
(x, y), = changed
assert {k for k in x if x[k] != y.get(k)} == {"ttl"} and y["ttl"] == x["ttl"] + 1, (x, y)
PY
then
  ok "the mutant: $mutant_file with one record's TTL changed to $mutant_ttl, nothing else"
  if run_suite "$tmp/broken" "$tmp/broken.log"; then
    notok "a changed packet passed: the check cannot fail"
  elif grep -q "Test run with 3 tests" "$tmp/broken.log" &&
    grep -qE "^[^ ]+ Test \"each packet keeps the records python-zeroconf keeps, in order, and no other\" .*failed" "$tmp/broken.log" &&
    grep -F "$mutant_file: python-zeroconf reads" "$tmp/broken.log" | grep -q . &&
    grep -qE "python-zeroconf only: .* ttl $mutant_ttl " "$tmp/broken.log"; then
    ok "the changed packet fails the record comparison, which names $mutant_file and the TTL $mutant_ttl"
  else
    grep -E "✘|Test run" "$tmp/broken.log" | head -20 | diag
    notok "the changed packet did not fail the record comparison on $mutant_file's TTL $mutant_ttl (see above)"
  fi
else
  notok "the mutant could not be written, or differs in more than one TTL (${mutant:-nothing written})"
fi

# And a folder without packets is an error, not a pass of zero cases.
mkdir "$tmp/empty"
if run_suite "$tmp/empty" "$tmp/empty.log"; then
  notok "an empty folder passed"
else
  ok "an empty folder fails the suite"
fi
done_testing
