# lab-test-lib.sh: what the lab test scripts share. Source it after setting `here` (the
# package root) with the script's name: `. "$here/Tests/Scripts/lab-test-lib.sh" NAME`.
# It gives ok/notok/diag and the counts, a scratch directory $tmp, and a trap that tears the
# lab down on every exit (after the script's own `test_cleanup`, if it defines one) and ends
# with "N passed, M failed"; build_cast_scan sets $bin; lab_up FIXTURE-or-ARGS starts the lab
# or fails the run (never a skip) when it cannot. The lab is CASTLAB_NAME's (default castlab;
# Scripts/lab/lab-name.sh), so suites with different names run side by side.
# CAST_SCAN_BIN_DIR: the bin directory of a finished debug build (make test builds once, before
# the suites); unset, build_cast_scan builds cast-scan here.
castlab="$here/Scripts/castlab"
. "$here/Scripts/lab/lab-name.sh" || exit 1
scratch=(); [ -n "${SWIFT_SCRATCH:-}" ] && scratch=(--scratch-path "$SWIFT_SCRATCH")
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
passed=0 failed=0 started=0
tmp=$(mktemp -d "/tmp/$1.XXXXXX")

ok() { echo "ok - $*"; passed=$((passed + 1)); }
notok() { echo "not ok - $*"; failed=$((failed + 1)); }
diag() { sed 's/^/#   /' >&2; }

finish() {
  declare -F test_cleanup >/dev/null && test_cleanup
  [ "$started" = 1 ] && "$castlab" down >/dev/null 2>&1
  rm -rf "$tmp"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
trap 'finish; exit $?' EXIT

build_cast_scan() {
  cd "$here" || exit 1
  if [ -n "${CAST_SCAN_BIN_DIR:-}" ]; then
    bin=$CAST_SCAN_BIN_DIR/cast-scan
    [ -x "$bin" ] || { notok "CAST_SCAN_BIN_DIR holds no cast-scan ($bin)"; exit 1; }
    return 0
  fi
  if ! swift build --product cast-scan "${scratch[@]}" >"$tmp/build" 2>&1; then
    cat "$tmp/build" >&2; notok "cast-scan builds"; exit 1
  fi
  bin=$(swift build --show-bin-path "${scratch[@]}")/cast-scan
}

# castlab up decides whether a lab is already there: it reclaims one left behind (state or
# namespaces whose processes are all gone: a killed run, a machine restored from a snapshot)
# and refuses one that runs, leaving it alone; when it fails it tears down what it made. So the
# suite tears down only a lab it brought up.
lab_up() {
  if ! "$castlab" up "$@" >"$tmp/up" 2>&1; then
    cat "$tmp/up" >&2; notok "the lab could not start (see above)"; exit 1
  fi
  started=1
  grep -h "reclaiming a lab left behind" "$tmp/up" | diag
}
