#!/usr/bin/env bash
# serve-exporter-test.sh: `cast-scan serve` as Prometheus' exporters are, over loopback only,
# serving a recorded network (no lab), checked with curl, gzip and promtool:
#  - several --listen addresses: each answers; /-/healthy 200; /-/ready 200 once the replay's
#    first scan ended; /healthz stays;
#  - gzip: with Accept-Encoding: gzip the body is gzip (Content-Encoding, Vary) and gunzips to
#    an exposition promtool check metrics accepts; with gzip;q=0, or without the header, plain;
#  - OpenMetrics when Accept weighs it highest (Prometheus' own header), the text format when
#    text/plain weighs more; _info families of OpenMetrics' info type;
#  - /sd: Prometheus' HTTP SD format, one target per device with __meta_cast_ labels;
#  - the server's own families: cast_scan_http_requests_total, process_*;
#  - systemd socket activation: under systemd-socket-activate serve answers on the socket it
#    was passed, and refuses --listen beside it (69).
# CAST_SCAN_BIN_DIR: the bin directory of a finished debug build (make test's); unset, it builds.
# Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/tap-lib.sh" serve-exporter
replay="$here/Fixtures/replay/living-room.json"

for tool in curl promtool systemd-socket-activate gzip; do
  command -v "$tool" >/dev/null || bail_out "$tool is on PATH (Scripts/setup --lab installs it)"
done
. "$here/Tests/Scripts/serve-lib.sh"

# wait_for FILE PATTERN: until FILE has a line matching PATTERN (at most 60 s: a guard, not a wait).
wait_for() {
  local i
  for i in $(seq 600); do grep -Eq "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

# Two addresses, each on a port the system picks.
"$bin" serve --replay "$replay" --listen 127.0.0.1:0 --listen 127.0.0.2:0 2>"$tmp/serve.err" &
pids+=($!)
wait_for "$tmp/serve.err" "listening on http://127\.0\.0\.1:[0-9]+/, http://127\.0\.0\.2:[0-9]+/" ||
  { diag <"$tmp/serve.err"; bail_out "serve says it listens on both addresses"; }
first=$(grep -Eo 'http://127\.0\.0\.1:[0-9]+' "$tmp/serve.err" | head -1)
second=$(grep -Eo 'http://127\.0\.0\.2:[0-9]+' "$tmp/serve.err" | head -1)
if [ "$(curl -s -o /dev/null -w '%{http_code}' "$first/-/healthy")" = 200 ] &&
   [ "$(curl -s -o /dev/null -w '%{http_code}' "$second/-/healthy")" = 200 ]; then
  ok "two --listen addresses, each answers /-/healthy 200"
else
  notok "/-/healthy on $first and $second"
fi
ready=""
for i in $(seq 600); do
  ready=$(curl -s -o /dev/null -w '%{http_code}' "$first/-/ready"); [ "$ready" = 200 ] && break; sleep 0.1
done
healthz=$(curl -s -o /dev/null -w '%{http_code}' "$first/healthz")
if [ "$ready" = 200 ] && [ -n "$healthz" ]; then
  ok "/-/ready 200 once the replay's first scan ended; /healthz still answers ($healthz)"
else
  notok "/-/ready: $ready"
fi

# gzip, asked for and not.
curl -s -D "$tmp/gzip.head" -H 'Accept-Encoding: gzip' -o "$tmp/metrics.gz" "$first/metrics"
curl -s -D "$tmp/plain.head" -o "$tmp/metrics.txt" "$first/metrics"
curl -s -D "$tmp/q0.head" -H 'Accept-Encoding: gzip;q=0, identity' -o "$tmp/metrics-q0.txt" "$first/metrics"
if grep -qi '^Content-Encoding: gzip' "$tmp/gzip.head" && grep -qi '^Vary: .*Accept-Encoding' "$tmp/gzip.head" &&
   gzip -dc <"$tmp/metrics.gz" >"$tmp/unzipped.txt" && promtool check metrics <"$tmp/unzipped.txt" >"$tmp/promtool.log" 2>&1 &&
   grep -q '^cast_device_up{' "$tmp/unzipped.txt"; then
  ok "gzip asked for: Content-Encoding gzip, Vary; gunzip | promtool check metrics clean ($(wc -c <"$tmp/metrics.gz") bytes for $(wc -c <"$tmp/unzipped.txt"))"
else
  notok "a gzip scrape"; diag <"$tmp/gzip.head"; diag <"$tmp/promtool.log"
fi
if ! grep -qi '^Content-Encoding' "$tmp/plain.head" && ! grep -qi '^Content-Encoding' "$tmp/q0.head" &&
   promtool check metrics <"$tmp/metrics-q0.txt" >"$tmp/promtool-q0.log" 2>&1; then
  ok "without Accept-Encoding and with gzip;q=0: plain, and promtool check metrics clean"
else
  notok "plain scrapes"; diag <"$tmp/q0.head"; diag <"$tmp/promtool-q0.log"
fi

# Accept: the highest weight wins.
prometheus_accept='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
curl -s -D "$tmp/om.head" -H "Accept: $prometheus_accept" -o "$tmp/om.txt" "$first/metrics"
curl -s -D "$tmp/text.head" -H 'Accept: application/openmetrics-text;q=0.4, text/plain;q=0.9' -o /dev/null "$first/metrics"
if grep -qi '^Content-Type: application/openmetrics-text' "$tmp/om.head" && tail -1 "$tmp/om.txt" | grep -qx '# EOF' &&
   grep -qx '# TYPE cast_device info' "$tmp/om.txt" && grep -qi '^Content-Type: text/plain; version=0.0.4' "$tmp/text.head"; then
  ok "Accept: OpenMetrics for Prometheus' header (info type for _info), the text format when text/plain weighs more"
else
  notok "Accept negotiation"; diag <"$tmp/om.head"; diag <"$tmp/text.head"
fi

# /sd and the server's own families.
curl -s "$first/sd" >"$tmp/sd.json"
if "$PY" - "$tmp/sd.json" <<'EOF'
import json, sys
groups = json.load(open(sys.argv[1]))
assert len(groups) == 4, groups
for group in groups:
    assert len(group["targets"]) == 1 and group["targets"][0].rsplit(":", 1)[1].isdigit(), group
    assert group["labels"]["__meta_cast_device_name"] and group["labels"]["__meta_cast_device_unique_id"], group
    assert all(k.startswith("__meta_cast_device_") for k in group["labels"]), group
EOF
then
  ok "/sd: 4 target groups, each one address:port with __meta_cast_device_ labels"
else
  notok "/sd"; diag <"$tmp/sd.json"
fi
curl -s "$first/metrics" >"$tmp/again.txt"
if grep -Eq '^cast_scan_http_requests_total\{handler="/metrics",code="200"\} [0-9]+$' "$tmp/again.txt" &&
   grep -Eq '^cast_scan_http_requests_total\{handler="/sd",code="200"\} 1$' "$tmp/again.txt" &&
   grep -Eq '^process_resident_memory_bytes [0-9.e+]+$' "$tmp/again.txt" &&
   grep -Eq '^process_cpu_seconds_total [0-9.e+]+$' "$tmp/again.txt" && grep -Eq '^process_open_fds [0-9]+$' "$tmp/again.txt" &&
   grep -Eq '^process_start_time_seconds [0-9]+$' "$tmp/again.txt"; then
  ok "cast_scan_http_requests_total by handler and code, and the process_ families"
else
  notok "the server's own families"; grep -E '^(cast_scan_http|process_)' "$tmp/again.txt" | diag
fi
stop_serves

# Socket activation: systemd-socket-activate listens, then runs serve with the socket as fd 3.
port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
systemd-socket-activate -l "127.0.0.1:$port" "$bin" serve --replay "$replay" 2>"$tmp/activated.err" &
pids+=($!)
code=""
for i in $(seq 600); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/-/healthy"); [ "$code" = 200 ] && break; sleep 0.1
done
if [ "$code" = 200 ] && wait_for "$tmp/activated.err" "listening on http://127\.0\.0\.1:$port/"; then
  ok "under systemd-socket-activate, serve answers on the socket it was passed"
else
  notok "socket activation: /-/healthy $code"; diag <"$tmp/activated.err"
fi
stop_serves
port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
systemd-socket-activate -l "127.0.0.1:$port" "$bin" serve --replay "$replay" --listen 127.0.0.1:0 2>"$tmp/both.err" &
pids+=($!)
curl -s -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null
wait "${pids[0]}"; status=$?
pids=()
if [ "$status" = 69 ] && grep -q "sockets were passed, and --listen too" "$tmp/both.err"; then
  ok "a passed socket and --listen together: 69, saying so"
else
  notok "socket and --listen: exit $status"; diag <"$tmp/both.err"
fi

done_testing
