# tap-lib.sh: what every test script shares. Source it after setting `here` (the package
# root) with the script's name: `. "$here/Tests/Scripts/tap-lib.sh" NAME`.
# It gives
#   ok WHAT / notok WHAT   a check's line ("ok - WHAT", "not ok - WHAT"), counted
#   bail_out WHAT          a failed check WHAT that ends the script: what follows cannot run
#   done_testing           the script's last line: it reached its end on purpose (it exits)
#   diag                   its standard input as diagnostics ("#   " lines) on standard error
#   $tmp                   a scratch directory of the script's own (/tmp/NAME.XXXXXX)
#   $PY                    the system's python3
# and a trap that, on every exit, runs the script's `test_cleanup` (if it defines one), then the
# functions sourced libraries put in `tap_cleanups` (lab-test-lib.sh's lab teardown: after the
# script's, which ends what runs in the lab), removes $tmp and ends with "N passed, M failed".
# The exit status is 0 only when the script called done_testing and no check failed: a script
# that stops anywhere else (a command that fails under `set -e`, an unset variable under
# `set -u`, an `exit` of its own) gets a failed check that names the status and the command it
# stopped in. Tests/Scripts/run-suites reads the last line, and fails a suite that ran fewer
# checks than its plan declares.
# SIGINT and SIGTERM (run-suites' time-out) are a failed check, then the same exit: bash runs
# an EXIT trap on a signal only when the signal is trapped.
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
passed=0 failed=0
tap_cleanups=()
# How the script ends: "" while it runs; "done" (done_testing) or "stopped" (bail_out, a signal),
# whose failed check is already counted.
tap_end=""
tmp=$(mktemp -d "/tmp/$1.XXXXXX") || { echo "not ok - no scratch directory in /tmp"; echo "0 passed, 1 failed"; exit 1; }

ok() { echo "ok - $*"; passed=$((passed + 1)); }
notok() { echo "not ok - $*"; failed=$((failed + 1)); }
diag() { sed 's/^/#   /' >&2; }
bail_out() { notok "$*"; tap_end=stopped; exit 1; }
done_testing() { tap_end=done; exit 0; }

# tap_finish STATUS COMMAND: the script's exit status and the command it exited in.
tap_finish() {
  set +e
  local status=$1 command=$2 cleanup
  if [ -z "$tap_end" ]; then
    # The command as one line, without control characters (it may span lines).
    command=$(printf '%s' "$command" | tr '\n\t' '  ' | tr -d '\000-\037\177' | cut -c1-160)
    notok "the script stopped before its end (no done_testing): exit status $status in \`$command\`"
  fi
  declare -F test_cleanup >/dev/null && test_cleanup
  for cleanup in "${tap_cleanups[@]+"${tap_cleanups[@]}"}"; do "$cleanup"; done
  rm -rf "$tmp"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
trap 'tap_finish "$?" "$BASH_COMMAND"; exit $?' EXIT
trap 'notok "interrupted by SIGINT"; tap_end=stopped; exit 130' INT
trap 'notok "interrupted by SIGTERM"; tap_end=stopped; exit 143' TERM
