#!/usr/bin/env bash
# backend-lab-test.sh: runs the Swift lab suites (CastDiscoveryLabTests: every backend against
# real daemons and simulated devices served by python-zeroconf and by avahi-daemon) inside the
# lab's sender namespace, one suite after the other. The suites are those `swift test list`
# shows, so a new one cannot be forgotten; only the order is written here: the daemon-restart
# suite disturbs the daemon the others use, and the hostile-traffic suite floods the link, so
# they run last. Each suite's results are read from its xUnit report, not from console text:
# every test the list shows for it must be there, none failed, none skipped.
# Needs root. A lab that cannot start, or a suite that did not run, is a failure, never a skip.
# Ends with "N passed, M failed". SWIFT_SCRATCH: the build folder, if not .build. CAST_SCAN_BIN_DIR
# set (make test: the tests were built once, before the suites): no build here. CASTLAB_NAME:
# the lab's name (Scripts/lab/lab-name.sh).
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
castlab="$here/Scripts/castlab"
. "$here/Scripts/lab/lab-name.sh" || exit 1
scratch=(); [ -n "${SWIFT_SCRATCH:-}" ] && scratch=(--scratch-path "$SWIFT_SCRATCH")
passed=0 failed=0 started=0
log=$(mktemp /tmp/backend-lab-test.XXXXXX)

finish() {
  if [ "$started" = 1 ]; then
    "$castlab" down >/dev/null 2>&1 || true
    if [ -n "$(castlab_namespaces)" ]; then
      echo "not ok - the lab left namespaces behind"; failed=$((failed + 1))
    fi
  fi
  rm -f "$log"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
trap 'finish; exit $?' EXIT

cd "$here"
if [ -z "${CAST_SCAN_BIN_DIR:-}" ] && ! swift build --build-tests "${scratch[@]}" >"$log" 2>&1; then
  cat "$log" >&2; echo "not ok - the tests do not build"; failed=$((failed + 1)); exit 1
fi
# castlab up reclaims a lab left behind and refuses one that runs (Tests/Scripts/lab-test-lib.sh,
# lab_up): this suite tears down only a lab it brought up.
if ! "$castlab" up "$here/Fixtures/lab/stacks.json" >"$log" 2>&1; then
  cat "$log" >&2; echo "not ok - the lab could not start (see above)"; failed=$((failed + 1)); exit 1
fi
started=1
grep -h "reclaiming a lab left behind" "$log" | sed 's/^/#   /' >&2

xml_dir=$(mktemp -d /tmp/backend-lab-xunit.XXXXXX)
trap 'rm -rf "$xml_dir"; finish; exit $?' EXIT

# The lab suites and their tests, from the built test bundle.
tests=$(swift test list --skip-build "${scratch[@]}" 2>/dev/null | grep '^CastDiscoveryLabTests\.' || true)
listed=$(sed -n 's/^CastDiscoveryLabTests\.\([A-Za-z0-9_]*\)\/.*/\1/p' <<<"$tests" | sort -u)
if [ -z "$listed" ]; then
  echo "not ok - swift test list shows no CastDiscoveryLabTests suite"; failed=$((failed + 1)); exit 1
fi
# These disturb the lab for whatever runs after them: last, in this order.
last=(AvahiDaemonLabTests MDNSHostileLabTests)
for suite in "${last[@]}"; do
  if ! grep -qx "$suite" <<<"$listed"; then
    echo "not ok - $suite, which this runner orders, is not a lab suite any more"; failed=$((failed + 1))
  fi
done
order=($(grep -vxF -f <(printf '%s\n' "${last[@]}") <<<"$listed") "${last[@]}")
echo "ok - ${#order[@]} lab suites from swift test list: ${order[*]}"; passed=$((passed + 1))

# run_suite TYPE: runs one suite in the lab; passes when its xUnit report holds every test the
# list shows for it, with no failure, error or skip.
run_suite() {
  local suite=$1 xml="$xml_dir/$1.xml"
  local expected; expected=$(grep -c "^CastDiscoveryLabTests\.$suite/" <<<"$tests")
  "$castlab" exec env CASTLAB_SWIFT_TESTS=1 swift test --skip-build "${scratch[@]}" \
    --filter "CastDiscoveryLabTests.$suite/" --xunit-output "$xml" >"$log" 2>&1
  local rc=$?
  grep -E '^(✘|✔) (Test|Suite)' "$log" | sed 's/^/#   /'
  local verdict
  verdict=$(python3 - "${xml%.xml}-swift-testing.xml" "$suite" "$expected" <<'PY'
import sys, xml.etree.ElementTree as ET
path, suite, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    root = ET.parse(path).getroot()
except (OSError, ET.ParseError) as error:
    print(f"no xUnit report ({error})"); sys.exit(1)
cases = [c for c in root.iter("testcase") if c.get("classname") == f"CastDiscoveryLabTests.{suite}"]
bad = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
skipped = [c.get("name") for c in cases if c.find("skipped") is not None]
if len(cases) != expected:
    print(f"{len(cases)} of {expected} tests ran"); sys.exit(1)
if bad or skipped:
    print(f"failed: {bad}, skipped: {skipped}"); sys.exit(1)
print(f"{len(cases)} tests passed")
PY
  )
  local checked=$?
  if [ "$rc" = 0 ] && [ "$checked" = 0 ]; then
    echo "ok - $suite ($verdict)"; passed=$((passed + 1))
  else
    grep -E 'skipped|error:' "$log" | head -20 | sed 's/^/#   /' >&2
    echo "not ok - $suite (exit $rc; $verdict)"; failed=$((failed + 1))
  fi
}

for suite in "${order[@]}"; do
  run_suite "$suite"
done
