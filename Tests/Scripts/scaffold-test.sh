#!/usr/bin/env bash
# scaffold-test.sh: the test scaffold itself can fail. Small scripts on tap-lib.sh that stop
# before their end (a failing command under `set -e`, an unset variable under `set -u`, an
# `exit 1` or `exit 0` of their own), that run no check, that bail out or fail a check must
# each exit non-zero with a line that says why; one that runs whole must pass. Then
# Tests/Scripts/run-suites must fail, in its table, a suite that stopped early, one that ran no
# check and one that ran fewer checks than its plan declares, and pass the rest.
# Needs nothing but bash and this tree. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/tap-lib.sh" scaffold-test

# case NAME BODY: a script on tap-lib.sh whose body is BODY, as $tmp/cases/NAME.sh.
mkdir "$tmp/cases"
case_script() {
  printf '%s\n' "here='$here'" ". \"\$here/Tests/Scripts/tap-lib.sh\" scaffold-case-$1" "$2" >"$tmp/cases/$1.sh"
}
case_script set-e $'set -e\nok "one"\nfalse\nok "two"\ndone_testing'
case_script set-u $'set -u\nok "one"\necho "$not_set_anywhere"\nok "two"\ndone_testing'
case_script exit-1 $'ok "one"\nexit 1\nok "two"\ndone_testing'
case_script exit-0 $'ok "one"\nexit 0\nok "two"\ndone_testing'
case_script no-check $'done_testing'
case_script bail-out $'ok "one"\nbail_out "the lab could not start"\nok "two"\ndone_testing'
case_script failing $'ok "one"\nnotok "two"\ndone_testing'
case_script whole $'ok "one"\nok "two"\nok "three"\ndone_testing'

# run_case NAME: runs it; its exit status in $rc, its output in $tmp/NAME.out.
run_case() { bash "$tmp/cases/$1.sh" >"$tmp/$1.out" 2>&1; rc=$?; }

# stops NAME STATUS COMMAND: the script stopped in COMMAND with STATUS, said so, and failed.
stops() {
  run_case "$1"
  if [ "$rc" != 0 ] && grep -qxF "not ok - the script stopped before its end (no done_testing): exit status $2 in \`$3\`" "$tmp/$1.out" &&
    [ "$(tail -n1 "$tmp/$1.out")" = "1 passed, 1 failed" ] && ! grep -q "ok - two" "$tmp/$1.out"; then
    ok "$1: exit $rc, \"1 passed, 1 failed\" and the line that says it stopped in \`$3\` with status $2"
  else
    notok "$1: exit $rc; its output:"; diag <"$tmp/$1.out"
  fi
}
stops set-e 1 false
stops set-u 1 'echo "$not_set_anywhere"'
stops exit-1 1 'exit 1'
stops exit-0 0 'exit 0'

run_case no-check
if [ "$rc" = 0 ] && [ "$(tail -n1 "$tmp/no-check.out")" = "0 passed, 0 failed" ]; then
  ok "no-check: exit 0 with \"0 passed, 0 failed\", which only run-suites can refuse (below)"
else
  notok "no-check: exit $rc"; diag <"$tmp/no-check.out"
fi
run_case bail-out
if [ "$rc" != 0 ] && [ "$(grep -c '^not ok' "$tmp/bail-out.out")" = 1 ] &&
  grep -qxF "not ok - the lab could not start" "$tmp/bail-out.out" && [ "$(tail -n1 "$tmp/bail-out.out")" = "1 passed, 1 failed" ]; then
  ok "bail-out: exit $rc, its one failed check says why"
else
  notok "bail-out: exit $rc"; diag <"$tmp/bail-out.out"
fi
run_case failing
[ "$rc" != 0 ] && [ "$(tail -n1 "$tmp/failing.out")" = "1 passed, 1 failed" ] &&
  ok "failing: exit $rc, \"1 passed, 1 failed\"" || { notok "failing: exit $rc"; diag <"$tmp/failing.out"; }
run_case whole
[ "$rc" = 0 ] && [ "$(cat "$tmp/whole.out")" = $'ok - one\nok - two\nok - three\n3 passed, 0 failed' ] &&
  ok "whole: exit 0, \"3 passed, 0 failed\" and nothing else" || { notok "whole: exit $rc"; diag <"$tmp/whole.out"; }

# run-suites over them: each verdict in its table.
cat >"$tmp/scaffold.plan" <<PLAN
beside   set-e        2  bash $tmp/cases/set-e.sh
beside   exit-0       2  bash $tmp/cases/exit-0.sh
beside   no-check     1  bash $tmp/cases/no-check.sh
beside   too-few      4  bash $tmp/cases/whole.sh
beside   whole        3  bash $tmp/cases/whole.sh
beside   status-only  1  true
PLAN
"$here/Tests/Scripts/run-suites" --jobs 2 --timeout 60 --logs "$tmp/logs" "$tmp/scaffold.plan" >"$tmp/suites.out" 2>&1
rc=$?
# row NAME ROW: the table's row of suite NAME, its spaces squeezed, ends with ROW.
row() {
  if awk -v name="$1" '$1 == name && / s  /' "$tmp/suites.out" | tr -s ' ' | grep -qE -- "$(printf '%s' "$2" | sed 's/[][().*^$]/\\&/g')\$"; then
    ok "run-suites: $1 is \"$2\""
  else
    notok "run-suites: $1 is not \"$2\""; awk '/^Suites/,0' "$tmp/suites.out" | diag
  fi
}
row set-e "1 passed, 1 failed 2 FAILED (exit 1)"
row exit-0 "1 passed, 1 failed 2 FAILED (exit 1)"
row no-check "0 passed, 1 failed 1 FAILED (ran no check)"
row too-few "3 passed, 1 failed 4 FAILED (ran 3 checks, fewer than the 4 it declares)"
row whole "3 passed, 0 failed 3 ok"
row status-only "1 passed, 0 failed 1 ok"
[ "$rc" = 1 ] && [ "$(tail -n1 "$tmp/suites.out")" = "9 passed, 4 failed" ] &&
  ok "run-suites: exit 1, \"9 passed, 4 failed\" over the six suites" ||
  { notok "run-suites: exit $rc, last line '$(tail -n1 "$tmp/suites.out")'"; diag <"$tmp/suites.out"; }
done_testing
