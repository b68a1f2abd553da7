#!/usr/bin/env bash
# serve-lab-test.sh: `cast-scan serve` in the lab, as a fleet would run it: Debian's prometheus
# scrapes it every second inside the sender namespace, and the test asks Prometheus (its HTTP
# API, PromQL) what the lab holds: the devices by kind, a device that says goodbye and one that
# vanishes reading cast_device_up 0, then their series ending after --forget-after. promtool
# lints a scrape with a hostile name in it; headless Chromium (Debian's chromium) loads the
# status page, the test reads its DOM and keeps a screenshot ($CAST_SCAN_ARTIFACTS, default
# .build/test-artifacts). Then HTTP abuse (404, 405, a 1 MiB header, 200 clients at once, a
# client that never reads) while discovery goes on, and SIGTERM ends serve with 0.
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/lab-test-lib.sh" serve-lab-test

FORGET=6          # --forget-after, seconds
SCRAPE=1          # Prometheus' scrape interval, seconds
SHORT_TTL=4       # the TTL of the device that vanishes without a goodbye
artifacts=${CAST_SCAN_ARTIFACTS:-$here/.build/test-artifacts}
bg_pids=()

test_cleanup() {
  local pid
  for pid in "${bg_pids[@]}"; do [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; done
  for pid in "${bg_pids[@]}"; do [ -n "$pid" ] && wait "$pid" 2>/dev/null; done
}

for tool in prometheus promtool chromium; do
  command -v "$tool" >/dev/null || bail_out "$tool is installed (Scripts/setup --lab installs it)"
done
build_cast_scan
mkdir -p "$artifacts"

# get PATH [ACCEPT]: GET http://127.0.0.1:9464PATH in the sender namespace; prints the body
# after a first line "STATUS CONTENT-TYPE".
get() {
  "$castlab" exec "$PY" - "$1" "${2:-}" <<'PY'
import sys, urllib.request, urllib.error
req = urllib.request.Request("http://127.0.0.1:9464" + sys.argv[1])
if sys.argv[2]: req.add_header("Accept", sys.argv[2])
try:
    r = urllib.request.urlopen(req, timeout=10); status, body, ctype = r.status, r.read(), r.headers.get("Content-Type")
except urllib.error.HTTPError as e:
    status, body, ctype = e.code, e.read(), e.headers.get("Content-Type")
print(status, ctype); sys.stdout.write(body.decode("utf-8", "replace"))
PY
}

# promql EXPR: the instant vector of EXPR from Prometheus, as "labels-json value" lines.
promql() {
  "$castlab" exec "$PY" - "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = "http://127.0.0.1:9090/api/v1/query?" + urllib.parse.urlencode({"query": sys.argv[1]})
try:
    data = json.load(urllib.request.urlopen(url, timeout=5))
except Exception as e:
    print("error", e); sys.exit(1)
for r in data["data"]["result"]:
    print(json.dumps(r["metric"], sort_keys=True), r["value"][1])
PY
}

# wait_for SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds; prints the seconds it
# took; fails after SECONDS.
wait_for() {
  local limit=$1 start now; shift
  start=$(date +%s.%N)
  while :; do
    if "$@" >/dev/null 2>&1; then now=$(date +%s.%N); awk -v a="$now" -v b="$start" 'BEGIN { printf "%.1f", a - b }'; return 0; fi
    now=$(date +%s.%N)
    awk -v a="$now" -v b="$start" -v l="$limit" 'BEGIN { exit !(a - b > l) }' && return 1
    sleep 0.2
  done
}

lab_up "$here/Fixtures/lab/real-world.json"
# A device with a hostile name (markup, quotes, a backslash, an escape sequence, a bidi
# override) and one with a short TTL, to vanish without a goodbye.
hostile_fn=$(printf 'fn=<script>alert(1)</script> "Q" \\ \033[31mred\033[0m \342\200\256evil')
"$PY" - "$hostile_fn" "$SHORT_TTL" >"$tmp/extra.json" <<'PY'
import json, sys
print(json.dumps([
  {"instance": "Hostile-Name-0f0e0d0c0b0a09080706050403020100", "host": "hostile-0f0e.local", "port": 8009,
   "txt": ["id=0f0e0d0c0b0a09080706050403020100", "cd=00", "rm=", "ve=05", "md=Chromecast", "ic=/setup/icon.png",
           sys.argv[1], "ca=4101", "st=0", "bs=FA8F00000000", "nf=1", "rs="]},
  {"instance": "Vanishing-1a2b3c4d5e6f70819a2b3c4d5e6f7081", "host": "vanishing-1a2b.local", "port": 8009, "ttl": int(sys.argv[2]),
   "txt": ["id=1a2b3c4d5e6f70819a2b3c4d5e6f7081", "cd=00", "rm=", "ve=05", "md=Google Nest Mini", "ic=/setup/icon.png",
           "fn=Vanishing speaker", "ca=199172", "st=0", "bs=FA8F00000001", "nf=1", "rs="]},
]))
PY
if "$castlab" add "$tmp/extra.json" >"$tmp/add.log" 2>&1; then ok "castlab add: a hostile-named device and a short-TTL one"; else diag <"$tmp/add.log"; bail_out "castlab add"; fi
"$castlab" status --json >"$tmp/lab.json"
lab_count=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["devices"]))' "$tmp/lab.json")

# ---------------------------------------------------------------- serve and prometheus
"$castlab" exec "$bin" serve --forget-after "$FORGET" >"$tmp/serve.out" 2>"$tmp/serve.err" &
serve_pid=$!; bg_pids+=("$serve_pid")
cat >"$tmp/prometheus.yml" <<YAML
global:
  scrape_interval: ${SCRAPE}s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: cast-scan
    static_configs:
      - targets: ["127.0.0.1:9464"]
  # Every listed device found through /sd and probed through /probe, as blackbox_exporter's
  # hosts are: the target becomes the probe's parameter, serve the address scraped.
  - job_name: cast-probe
    metrics_path: /probe
    http_sd_configs:
      - url: http://127.0.0.1:9464/sd
        refresh_interval: 1s
    relabel_configs:
      - source_labels: [__address__]
        target_label: __param_target
      - source_labels: [__param_target]
        target_label: instance
      - target_label: __address__
        replacement: 127.0.0.1:9464
YAML
"$castlab" exec prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
  --web.listen-address=127.0.0.1:9090 --log.level=warn >"$tmp/prometheus.log" 2>&1 &
prometheus_pid=$!; bg_pids+=("$prometheus_pid")

devices_listed() { get /devices | "$PY" -c 'import json,sys; sys.stdin.readline(); d=json.load(sys.stdin); sys.exit(0 if len(d["devices"]) == int(sys.argv[1]) else 1)' "$1"; }
if took=$(wait_for 30 devices_listed "$lab_count"); then
  ok "serve lists the lab's $lab_count devices on /devices (${took} s)"
else
  diag <"$tmp/serve.err"; bail_out "serve did not list the lab's $lab_count devices within 30 s"
fi
get /devices | tail -n +2 >"$tmp/devices.json"
health=$(get /healthz)
case "$health" in "200 "*"ok: discovery running"*) ok "/healthz: 200 while discovery runs";; *) notok "/healthz while running: $health";; esac

prom_total() { [ "$(promql 'sum(cast_devices)' | awk '{print $NF}')" = "$1" ]; }
if took=$(wait_for 30 prom_total "$lab_count"); then
  ok "Prometheus scrapes serve: sum(cast_devices) = $lab_count (${took} s after serve listed them)"
else
  promql 'up' | diag; diag <"$tmp/prometheus.log"; bail_out "Prometheus' sum(cast_devices) never reached $lab_count"
fi
want_kinds=$("$PY" -c '
import json,sys,collections
c=collections.Counter(d["kind"] for d in json.load(open(sys.argv[1]))["devices"])
print(" ".join("%s=%d" % (k, c[k]) for k in sorted(c)))' "$tmp/devices.json")
got_kinds=$(promql 'sum by (kind) (cast_devices) > 0' | "$PY" -c '
import json,sys
print(" ".join(sorted("%s=%s" % (json.loads(l.rsplit(" ",1)[0])["kind"], l.rsplit(" ",1)[1].strip()) for l in sys.stdin if l.strip())))')
[ "$got_kinds" = "$want_kinds" ] && ok "PromQL sum by (kind) (cast_devices): $got_kinds" || notok "PromQL by kind: got '$got_kinds', want '$want_kinds'"

# ---------------------------------------------------------------- /sd and /probe
# Every listed device is a target; those whose Cast channel answers (the lab's devices with a
# receiver and no failure mode) probe_success 1, the others (added later: no channel) 0.
sd_count=$(get /sd | tail -n +2 | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)))')
answering=$("$PY" -c '
import json, sys
print(sum(1 for d in json.load(open(sys.argv[1]))["devices"] if d.get("receiver") and not d["receiver"].get("failure")))' "$tmp/lab.json")
probes_as_expected() {
  [ "$(promql 'count(probe_success{job="cast-probe"})' | awk '{print $NF}')" = "$sd_count" ] &&
    [ "$(promql 'count(probe_success{job="cast-probe"} == 1)' | awk '{print $NF}')" = "$answering" ]
}
if took=$(wait_for 30 probes_as_expected); then
  ok "Prometheus finds the $sd_count listed devices through /sd and probes each through /probe: $answering with probe_success 1 (${took} s)"
else
  notok "/sd and /probe: want $sd_count targets, $answering succeeding"; promql 'probe_success' | diag; diag <"$tmp/prometheus.log"
fi
# A device whose channel stops answering (a firewall drops it): probe_success 0, from a probe
# that gave up within the scrape's time-out (0.9 s, less serve's half-second offset); back to
# 1 when it answers again.
read -r blocked_instance blocked_target < <("$PY" -c '
import json, sys
for d in json.load(open(sys.argv[1]))["devices"]:
    if d.get("receiver") and not d["receiver"].get("failure") and d.get("ipv4"):
        ipv4 = d["ipv4"] if isinstance(d["ipv4"], str) else d["ipv4"][0]
        print(d["instance"], "%s:%d" % (ipv4, d["port"])); break' "$tmp/lab.json")
probe_is() { [ "$(promql "probe_success{job=\"cast-probe\",instance=\"$blocked_target\"}" | awk '{print $NF}')" = "$1" ]; }
"$castlab" channel block "$blocked_instance" >"$tmp/block.log" 2>&1
if took=$(wait_for 30 probe_is 0) &&
   duration=$(promql "probe_duration_seconds{job=\"cast-probe\",instance=\"$blocked_target\"}" | awk '{print $NF}') &&
   awk -v d="$duration" 'BEGIN { exit !(d > 0 && d <= 0.9) }' &&
   "$castlab" channel unblock "$blocked_instance" >>"$tmp/block.log" 2>&1 && back=$(wait_for 30 probe_is 1); then
  ok "a device whose channel is dropped: probe_success 0 after ${took} s, its probe ${duration} s (within the scrape time-out); 1 again ${back} s after"
else
  notok "probe_success of $blocked_instance ($blocked_target) when its channel is dropped"; diag <"$tmp/block.log"
  promql "probe_success{job=\"cast-probe\"}" | diag
  "$castlab" channel unblock "$blocked_instance" >/dev/null 2>&1
fi

# ---------------------------------------------------------------- promtool and the page
get /metrics | tail -n +2 >"$tmp/scrape.txt"
if grep -q 'name="<script>alert(1)</script> \\"Q\\" \\\\ \\\\e\[31mred\\\\e\[0m \\\\u{202E}evil"' "$tmp/scrape.txt"; then
  ok "the hostile name is in the scrape, escaped (\\\" \\\\ and the escapes shown as text)"
else
  notok "the hostile name in the scrape"; grep 'Hostile\|0f0e0d' "$tmp/scrape.txt" | head -3 | diag
fi
if promtool check metrics <"$tmp/scrape.txt" >"$tmp/promtool.txt" 2>&1 && [ ! -s "$tmp/promtool.txt" ]; then
  ok "promtool check metrics: no lint problem in a scrape of $(grep -c '^cast_' "$tmp/scrape.txt") samples, hostile name included"
else
  notok "promtool check metrics"; diag <"$tmp/promtool.txt"
fi
chrome=(chromium --headless=new --no-sandbox --disable-gpu --user-data-dir="$tmp/chromium" --window-size=412,915)
"$castlab" exec timeout 60 "${chrome[@]}" --dump-dom http://127.0.0.1:9464/ >"$tmp/dom.html" 2>"$tmp/chromium.log"
"$castlab" exec timeout 60 "${chrome[@]}" --screenshot="$artifacts/serve-status-page.png" http://127.0.0.1:9464/ >>"$tmp/chromium.log" 2>&1
if out=$("$PY" - "$tmp/dom.html" "$tmp/devices.json" <<'PY' 2>&1
import html.parser, json, sys
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.names=[]; s.scripts=0; s.cell=None
    def handle_starttag(s, tag, attrs):
        if tag == "script": s.scripts += 1
        if tag == "td" and ("class", "name") in attrs: s.cell = ""
    def handle_endtag(s, tag):
        if tag == "td" and s.cell is not None: s.names.append(s.cell); s.cell = None
    def handle_data(s, data):
        if s.cell is not None: s.cell += data
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
devices = json.load(open(sys.argv[2]))["devices"]
assert p.scripts == 0, "a script element in the DOM"
assert len(p.names) == len(devices), (len(p.names), len(devices))
plain = sorted(d["friendlyName"] for d in devices if d["friendlyName"].isprintable() and "\u202e" not in d["friendlyName"])
assert set(plain) <= set(p.names), (plain, p.names)
hostile = [n for n in p.names if n.startswith("<script>")]
assert hostile == ['<script>alert(1)</script> "Q" \\ \\e[31mred\\e[0m \\u{202E}evil'], hostile
print("%d rows, %d names as text, the hostile one as text, no script element" % (len(p.names), len(plain) + 1))
PY
); then
  ok "headless Chromium's DOM of /: $out"
else
  notok "headless Chromium's DOM of /: $(echo "$out" | tail -1)"; diag <"$tmp/chromium.log"
fi
[ -s "$artifacts/serve-status-page.png" ] && ok "screenshot of the status page kept: $artifacts/serve-status-page.png" || notok "no screenshot ($artifacts/serve-status-page.png)"

# ---------------------------------------------------------------- devices that go
unique_of() { "$PY" -c 'import json,sys; print([d["uniqueID"] for d in json.load(open(sys.argv[1]))["devices"] if d["instanceName"].startswith(sys.argv[2])][0])' "$tmp/devices.json" "$1"; }
up_is() { [ "$(promql "cast_device_up{unique_id=\"$1\"}" | awk '{print $NF}')" = "$2" ]; }
series_gone() { [ -z "$(promql "cast_device_up{unique_id=\"$1\"}")" ]; }
goodbye_id=$(unique_of Cast-Emulator); vanish_id=$(unique_of Vanishing)
goodbye_instance=$("$PY" -c 'import json,sys; print([d["instance"] for d in json.load(open(sys.argv[1]))["devices"] if d["instance"].startswith("Cast-Emulator")][0])' "$tmp/lab.json")
"$castlab" remove "$goodbye_instance" >/dev/null
# A goodbye (TTL 0) takes effect after 1 s (RFC 6762 section 10.1); then two scrapes.
if took=$(wait_for $((1 + 2 * SCRAPE + 1)) up_is "$goodbye_id" 0); then
  ok "goodbye: cast_device_up for the emulator reads 0 in Prometheus ${took} s after castlab remove (limit 1 s + 2 scrapes + 1 s)"
else
  notok "goodbye: cast_device_up for the emulator is not 0 within $((1 + 2 * SCRAPE + 1)) s"; promql "cast_device_up{unique_id=\"$goodbye_id\"}" | diag
fi
"$castlab" stop "Vanishing-1a2b3c4d5e6f70819a2b3c4d5e6f7081" >/dev/null
# No goodbye: the records expire after their TTL; then two scrapes.
if took=$(wait_for $((SHORT_TTL + 2 * SCRAPE + 2)) up_is "$vanish_id" 0); then
  ok "silent stop: cast_device_up reads 0 ${took} s after castlab stop (TTL $SHORT_TTL s; limit TTL + 2 scrapes + 2 s)"
else
  notok "silent stop: cast_device_up is not 0 within $((SHORT_TTL + 2 * SCRAPE + 2)) s"; promql "cast_device_up{unique_id=\"$vanish_id\"}" | diag
fi
if took=$(wait_for $((FORGET + 2 * SCRAPE + 3)) series_gone "$goodbye_id"); then
  ok "the goodbye device's series ends after --forget-after $FORGET: gone from Prometheus' instant query (${took} s after it read 0)"
else
  notok "the goodbye device's series did not end within --forget-after $FORGET + 2 scrapes + 3 s"
fi

# ---------------------------------------------------------------- HTTP abuse
set_txt_instance=$("$PY" -c 'import json,sys; print([d["instance"] for d in json.load(open(sys.argv[1]))["devices"] if d["instance"].startswith("Chromecast-406c")][0])' "$tmp/lab.json")
if out=$("$castlab" exec "$PY" - <<'PY' 2>&1
import socket, threading, time, urllib.request
base = ("127.0.0.1", 9464)
def raw(req):
    s = socket.create_connection(base, timeout=20)
    try:
        s.sendall(req)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered (431) and closed before taking all of it
    data = b""
    while True:
        try: chunk = s.recv(65536)
        except (ConnectionResetError, socket.timeout): break
        if not chunk: break
        data += chunk
    s.close(); return data
def status(data): return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else None
assert status(raw(b"GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) == 404
assert status(raw(b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")) == 405
big = raw(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) + b"\r\nConnection: close\r\n\r\n")
assert status(big) in (400, 413, 431), big[:80]
# Clients that never read: each asks for the page with a small receive window and reads
# nothing (the server may close them when their time is up).
stalled = []
for _ in range(8):
    c = socket.socket(); c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    c.connect(base); c.setblocking(False)
    try:
        for _ in range(64): c.send(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    except (BlockingIOError, ConnectionResetError, BrokenPipeError): pass
    stalled.append(c)
# 200 clients at once, each asking for the metrics.
results = []
def one():
    try: results.append(status(raw(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")))
    except Exception as e: results.append(repr(e))
start = time.time(); threads = [threading.Thread(target=one) for _ in range(200)]
for t in threads: t.start()
for t in threads: t.join()
took = time.time() - start
assert results.count(200) == 200, [r for r in results if r != 200][:5]
# /metrics still answers quickly beside the client that never reads.
t0 = time.time(); fast = None
while time.time() - t0 < 5:
    a = time.time(); body = urllib.request.urlopen("http://127.0.0.1:9464/metrics", timeout=5).read(); b = time.time()
    fast = b - a if fast is None else min(fast, b - a)
    time.sleep(0.1)
for c in stalled: c.close()
print("404, 405, %d for a 1 MiB header; 200 clients at once all answered 200 in %.1f s; /metrics answers in %.0f ms beside 8 clients that never read" % (status(big), took, fast * 1000))
PY
); then
  ok "HTTP abuse: $out"
else
  notok "HTTP abuse: $(echo "$out" | tail -2 | tr '\n' ' ')"
fi
# Discovery went on through it: a TXT change reaches /devices.
"$castlab" set-txt "$set_txt_instance" "rs=AfterAbuse" >/dev/null
txt_seen() { grep -q '"rs=AfterAbuse"' <<<"$(get /devices)"; }
if took=$(wait_for 5 txt_seen); then ok "discovery went on: a TXT change after the abuse reaches /devices in ${took} s"; else notok "a TXT change after the abuse did not reach /devices within 5 s"; fi

# ---------------------------------------------------------------- the end
kill -TERM "$serve_pid"; sent=$(date +%s.%N)
wait "$serve_pid"; rc=$?; ended=$(date +%s.%N)
remaining=(); for pid in "${bg_pids[@]}"; do [ "$pid" = "$serve_pid" ] || remaining+=("$pid"); done; bg_pids=("${remaining[@]}")
took=$(awk -v a="$ended" -v b="$sent" 'BEGIN { printf "%.2f", a - b }')
if [ "$rc" = 0 ] && awk -v t="$took" 'BEGIN { exit !(t < 1) }'; then ok "SIGTERM: serve ends with 0 in ${took} s"; else notok "SIGTERM: serve ended with $rc after ${took} s"; diag <"$tmp/serve.err"; fi
if out=$("$PY" - "$tmp/serve.err" <<'PY'
import sys, unicodedata
text = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read()
bad = sorted({"U+%04X" % ord(c) for c in text if (unicodedata.category(c) in ("Cc", "Cf", "Cs") and c != "\n")})
print(" ".join(bad)); sys.exit(1 if bad else 0)
PY
); then ok "serve's log (stderr) has no raw control, format (bidi) or undecodable character"; else notok "serve's log holds raw $out"; fi
done_testing
