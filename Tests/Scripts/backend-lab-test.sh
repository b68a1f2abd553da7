#!/usr/bin/env bash
# backend-lab-test.sh: runs the Swift lab suites (CastDiscoveryLabTests: every backend against
# real daemons and simulated devices served by python-zeroconf and by avahi-daemon) inside the
# lab's sender namespace, one suite after the other, in an order that matters: the daemon-restart
# suite disturbs the daemon the others use, and the hostile-traffic suite floods the link last.
# Every suite the target holds must be in the list below and must pass: none is skipped.
# Needs root. A lab that cannot start, or a suite that did not run, is a failure, never a skip.
# Ends with "N passed, M failed". SWIFT_SCRATCH: the build folder, if not .build.
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
castlab="$here/Scripts/castlab"
export CASTLAB_STATE=${CASTLAB_STATE:-/run/castlab}
scratch=(); [ -n "${SWIFT_SCRATCH:-}" ] && scratch=(--scratch-path "$SWIFT_SCRATCH")
passed=0 failed=0 started=0
log=$(mktemp /tmp/backend-lab-test.XXXXXX)

finish() {
  if [ "$started" = 1 ]; then
    "$castlab" down >/dev/null 2>&1 || true
    if ip netns list 2>/dev/null | grep -q '^castlab-'; then
      echo "not ok - the lab left namespaces behind"; failed=$((failed + 1))
    fi
  fi
  rm -f "$log"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
trap 'finish; exit $?' EXIT

cd "$here"
if ! swift build --build-tests "${scratch[@]}" >"$log" 2>&1; then
  cat "$log" >&2; echo "not ok - the tests do not build"; failed=$((failed + 1)); exit 1
fi
if [ -e "$CASTLAB_STATE/lab.json" ]; then
  echo "not ok - a lab is already running (run: Scripts/castlab down)"; failed=$((failed + 1)); exit 1
fi
started=1
if ! "$castlab" up "$here/Fixtures/lab/stacks.json" >"$log" 2>&1; then
  cat "$log" >&2; echo "not ok - the lab could not start (see above)"; failed=$((failed + 1)); exit 1
fi

# run_suite FILTER "SUITE NAME": runs one suite in the lab and checks it really ran and passed.
run_suite() {
  "$castlab" exec env CASTLAB_SWIFT_TESTS=1 swift test --skip-build "${scratch[@]}" --filter "$1" >"$log" 2>&1
  local rc=$?
  grep -E '^(✘|✔) (Test|Suite)' "$log" | sed 's/^/#   /'
  if [ "$rc" = 0 ] && grep -q "Suite \"$2\" passed" "$log"; then
    echo "ok - $2"; passed=$((passed + 1))
  else
    grep -E 'skipped|error:' "$log" | head -20 | sed 's/^/#   /' >&2
    echo "not ok - $2 (exit $rc)"; failed=$((failed + 1))
  fi
}

# In order: (type, suite name).
suites=(
  "BackendLabTests|Backends in the lab"
  "DiscoveryManagerLabTests|Discovery manager in the lab"
  "MDNSQuerierLabTests|mDNS querier in the lab"
  "AvahiDaemonLabTests|Daemon backends across daemon restarts"
  "MDNSHostileLabTests|mDNS querier under hostile traffic"
)
# Every suite of the target is in the list (a new one cannot be skipped by being forgotten).
listed=$(swift test list --skip-build "${scratch[@]}" 2>/dev/null | sed -n 's/^CastDiscoveryLabTests\.\([A-Za-z0-9_]*\)\/.*/\1/p' | sort -u)
known=$(printf '%s\n' "${suites[@]}" | cut -d'|' -f1 | sort -u)
if [ -z "$listed" ]; then
  echo "not ok - swift test list shows no CastDiscoveryLabTests suite"; failed=$((failed + 1))
elif [ "$listed" != "$known" ]; then
  echo "not ok - the lab suites and this runner's list differ:"; diff <(echo "$known") <(echo "$listed") | sed 's/^/#   /'
  failed=$((failed + 1))
else
  ok_count=$(wc -l <<<"$listed"); echo "ok - runner lists all $ok_count lab suites"; passed=$((passed + 1))
fi
for entry in "${suites[@]}"; do
  run_suite "CastDiscoveryLabTests.${entry%%|*}" "${entry#*|}"
done
