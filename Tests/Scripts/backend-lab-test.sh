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
. "$here/Tests/Scripts/lab-test-lib.sh" backend-lab-test
log=$tmp/log
xml_dir=$tmp/xunit
mkdir -p "$xml_dir"

cd "$here"
if [ -z "${CAST_SCAN_BIN_DIR:-}" ] && ! swift build --build-tests "${scratch[@]}" >"$log" 2>&1; then
  cat "$log" >&2; bail_out "the tests do not build"
fi
lab_up "$here/Fixtures/lab/stacks.json"

# The lab suites and their tests, from the built test bundle.
tests=$(swift test list --skip-build "${scratch[@]}" 2>/dev/null | grep '^CastDiscoveryLabTests\.' || true)
listed=$(sed -n 's/^CastDiscoveryLabTests\.\([A-Za-z0-9_]*\)\/.*/\1/p' <<<"$tests" | sort -u)
if [ -z "$listed" ]; then
  bail_out "swift test list shows no CastDiscoveryLabTests suite"
fi
# These disturb the lab for whatever runs after them: last, in this order.
last=(AvahiDaemonLabTests MDNSHostileLabTests)
for suite in "${last[@]}"; do
  if ! grep -qx "$suite" <<<"$listed"; then
    notok "$suite, which this runner orders, is not a lab suite any more"
  fi
done
order=($(grep -vxF -f <(printf '%s\n' "${last[@]}") <<<"$listed") "${last[@]}")
ok "${#order[@]} lab suites from swift test list: ${order[*]}"

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
  verdict=$("$PY" - "${xml%.xml}-swift-testing.xml" "$suite" "$expected" <<'PY'
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
    ok "$suite ($verdict)"
  else
    grep -E 'skipped|error:' "$log" | head -20 | diag
    notok "$suite (exit $rc; $verdict)"
  fi
}

for suite in "${order[@]}"; do
  run_suite "$suite"
done
done_testing
