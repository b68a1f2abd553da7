# serve-lib.sh: what the loopback-only tests of `cast-scan serve` share. Source it after
# tap-lib.sh. It gives
#   $bin                      cast-scan: CAST_SCAN_BIN_DIR's (a finished debug build, make test's),
#                             else built here
#   start_serve ERR ARGS...   starts `cast-scan serve ARGS...` in the background (its PID appended
#                             to $pids), its standard error in ERR, and sets $served to the URL it
#                             says it listens on first (http:// or https://); fails after 60 s
#                             without one. Not in $(...): the PID would be lost with the subshell
#   stop_serves               ends the serves started (by PID), also on every exit
pids=()
stop_serves() {
  local pid
  for pid in "${pids[@]+"${pids[@]}"}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  pids=()
}
test_cleanup() { stop_serves; }

if [ -n "${CAST_SCAN_BIN_DIR:-}" ]; then
  bin=$CAST_SCAN_BIN_DIR/cast-scan
else
  (cd "$here" && swift build --product cast-scan >"$tmp/build" 2>&1) || { diag <"$tmp/build"; bail_out "cast-scan builds"; }
  bin=$(cd "$here" && swift build --show-bin-path)/cast-scan
fi
[ -x "$bin" ] || bail_out "no cast-scan at $bin"

start_serve() {
  local err=$1 i url
  shift
  served=""
  "$bin" serve "$@" >/dev/null 2>"$err" &
  pids+=($!)
  for i in $(seq 600); do
    url=$(grep -Eo 'listening on https?://[^/ ]+' "$err" | head -1)
    [ -n "$url" ] && { served=${url#listening on }; return 0; }
    sleep 0.1
  done
  return 1
}
