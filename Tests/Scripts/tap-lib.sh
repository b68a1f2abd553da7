# tap-lib.sh: what every test script shares. Source it after setting `here` (the package
# root) with the script's name: `. "$here/Tests/Scripts/tap-lib.sh" NAME`.
# It gives
#   ok WHAT / notok WHAT   a check's line ("ok - WHAT", "not ok - WHAT"), counted
#   diag                   its standard input as diagnostics ("#   " lines) on standard error
#   $tmp                   a scratch directory of the script's own (/tmp/NAME.XXXXXX)
#   $PY                    the system's python3
# and a trap that, on every exit, runs the script's `test_cleanup` (if it defines one), then the
# functions sourced libraries put in `tap_cleanups` (lab-test-lib.sh's lab teardown: after the
# script's, which ends what runs in the lab), removes $tmp and ends with "N passed, M failed";
# the script's exit status is 0 only when none failed. Tests/Scripts/run-suites reads that line.
# SIGINT and SIGTERM (run-suites' time-out) are a failed check, then the same exit: bash runs
# an EXIT trap on a signal only when the signal is trapped.
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
passed=0 failed=0
tap_cleanups=()
tmp=$(mktemp -d "/tmp/$1.XXXXXX") || { echo "not ok - no scratch directory in /tmp"; exit 1; }

ok() { echo "ok - $*"; passed=$((passed + 1)); }
notok() { echo "not ok - $*"; failed=$((failed + 1)); }
diag() { sed 's/^/#   /' >&2; }

tap_finish() {
  local cleanup
  declare -F test_cleanup >/dev/null && test_cleanup
  for cleanup in "${tap_cleanups[@]+"${tap_cleanups[@]}"}"; do "$cleanup"; done
  rm -rf "$tmp"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
trap 'tap_finish; exit $?' EXIT
trap 'notok "interrupted by SIGINT"; exit 130' INT
trap 'notok "interrupted by SIGTERM"; exit 143' TERM
