# lab-test-lib.sh: what the lab test scripts share, on top of tap-lib.sh (ok/notok/diag and
# their counts, $tmp, $PY, the trap that ends with "N passed, M failed"). Source it after
# setting `here` (the package root) with the script's name:
# `. "$here/Tests/Scripts/lab-test-lib.sh" NAME`.
# It adds: build_cast_scan sets $bin; lab_up FIXTURE-or-ARGS starts the lab or fails the run
# (never a skip) when it cannot; on every exit, after the script's own `test_cleanup`, a lab this
# script brought up is torn down, and a namespace it left is a failure. The lab is
# CASTLAB_NAME's (default castlab; Scripts/lab/lab-name.sh), so suites with different names run
# side by side. CAST_SCAN_BIN_DIR: the bin directory of a finished debug build (make test builds
# once, before the suites); unset, build_cast_scan builds cast-scan here.
. "$here/Tests/Scripts/tap-lib.sh" "$1"
castlab="$here/Scripts/castlab"
. "$here/Scripts/lab/lab-name.sh" || bail_out "CASTLAB_NAME is not a lab name (see above)"
scratch=(); [ -n "${SWIFT_SCRATCH:-}" ] && scratch=(--scratch-path "$SWIFT_SCRATCH")
started=0

lab_teardown() {
  [ "$started" = 1 ] || return 0
  "$castlab" down >/dev/null 2>&1
  [ -z "$(castlab_namespaces)" ] || notok "the lab left namespaces behind: $(castlab_namespaces | tr '\n' ' ')"
}
tap_cleanups+=(lab_teardown)

build_cast_scan() {
  cd "$here" || bail_out "cd $here"
  if [ -n "${CAST_SCAN_BIN_DIR:-}" ]; then
    bin=$CAST_SCAN_BIN_DIR/cast-scan
    [ -x "$bin" ] || bail_out "CAST_SCAN_BIN_DIR holds no cast-scan ($bin)"
    return 0
  fi
  if ! swift build --product cast-scan "${scratch[@]}" >"$tmp/build" 2>&1; then
    cat "$tmp/build" >&2; bail_out "cast-scan builds"
  fi
  bin=$(swift build --show-bin-path "${scratch[@]}")/cast-scan
}

# A lab that runs is someone else's: left alone, and the run fails. A lab left behind (state or
# namespaces whose processes are all gone: a killed run, a machine restored from a snapshot) is
# this suite's to reclaim: castlab up does. From then on the lab is this suite's, torn down on
# every exit, also one in the middle of castlab up (bash runs the trap only once up returns).
lab_up() {
  if "$castlab" running; then
    bail_out "the lab $CASTLAB_NAME is already running (run: CASTLAB_NAME=$CASTLAB_NAME Scripts/castlab down)"
  fi
  started=1
  if ! "$castlab" up "$@" >"$tmp/up" 2>&1; then
    cat "$tmp/up" >&2; bail_out "the lab could not start (see above)"
  fi
  grep -h "reclaiming a lab left behind" "$tmp/up" | diag
}
