#!/usr/bin/env bash
# web-config-test.sh: `cast-scan serve --web-config FILE`, the web configuration file
# Prometheus' exporters share, over loopback only, serving a recorded network (no lab):
#  - every file of Fixtures/web-config (exporter-toolkit 0.8.2's test data and cases of our
#    own) gets the same verdict from `serve --check-config` as from `promtool check
#    web-config`;
#  - TLS with curl: HTTPS answers with the login; TLS 1.1 refused under the default minimum;
#    plain HTTP to the TLS port told so (400) and closed; mutual TLS without a client
#    certificate, or with one the CA did not sign, refused in the handshake, with the right one
#    200; new files (a rotated certificate) served to new connections without a restart;
#  - Debian's prometheus scraping serve with tls_config and basic_auth: up 1, and 0 with a
#    wrong password;
#  - basic auth with curl: 401 and WWW-Authenticate: Basic without credentials, with a wrong
#    password and for an unknown user; the CVE-2022-46146 cache bypass refused; 200 with the
#    right password; the configured headers on every answer;
#  - a flood of wrong logins (each a new password, so each a bcrypt check) while an
#    authorised scraper keeps scraping: its answers stay quick, the flood is refused (429) past
#    what may wait, and every request gets an answer;
#  - the file read again when it changes (a new user works), and a broken change keeping the
#    last good configuration, said on standard error; SIGHUP reads it at once, with no request
#    (and does not end serve);
#  - --check-config: 0 for a good file, 78 with the reason for a bad one.
# CAST_SCAN_BIN_DIR: the bin directory of a finished debug build (make test's); unset, it builds.
# Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/tap-lib.sh" web-config
fixtures="$here/Fixtures/web-config"
replay="$here/Fixtures/replay/living-room.json"

for tool in curl promtool; do
  command -v "$tool" >/dev/null || bail_out "$tool is on PATH (Scripts/setup --lab installs it)"
done
. "$here/Tests/Scripts/serve-lib.sh"

# --- The same verdict as promtool, file by file.
same=0 differ=()
for file in "$fixtures"/exporter-toolkit/*.yml "$fixtures"/cases/*.yml; do
  promtool check web-config "$file" >/dev/null 2>&1; theirs=$?
  "$bin" serve --web-config "$file" --check-config >/dev/null 2>"$tmp/ours.err"; ours=$?
  name=${file#"$fixtures"/}
  if { [ "$theirs" = 0 ] && [ "$ours" = 0 ]; } || { [ "$theirs" != 0 ] && [ "$ours" = 78 ]; }; then
    same=$((same + 1))
  else
    differ+=("$name (promtool $theirs, cast-scan $ours: $(tr '\n' ' ' <"$tmp/ours.err"))")
  fi
done
if [ ${#differ[@]} = 0 ] && [ "$same" -ge 75 ]; then
  ok "$same web configuration files: the same verdict as promtool check web-config"
else
  notok "verdicts that differ from promtool's ($same the same)"; printf '%s\n' "${differ[@]}" | diag
fi

# --- Basic auth.
config="$tmp/web.yml"
write_config() {
  # carol/carol123 and dave/dave123 (exporter-toolkit's test users, cost 10); $1: more lines.
  {
    echo "basic_auth_users:"
    grep -E '^  (carol|dave):' "$fixtures/exporter-toolkit/web_config_users_noTLS.good.yml"
    printf '%s' "${1:-}"
    echo "http_server_config:"
    echo "  headers:"
    echo "    X-Frame-Options: deny"
  } >"$config.new" && mv "$config.new" "$config"
}
write_config
start_serve "$tmp/serve.err" --replay "$replay" --listen 127.0.0.1:0 --web-config "$config" ||
  { diag <"$tmp/serve.err"; bail_out "serve --web-config says where it listens"; }
url=$served

# status USER:PASSWORD [PATH]: the status code, the head in $tmp/head.
status() {
  local auth=()
  [ -n "$1" ] && auth=(-u "$1")
  curl -s -o /dev/null -D "$tmp/head" -w '%{http_code}' "${auth[@]}" "$url${2:-/metrics}"
}
none=$(status ""); head_none=$(cat "$tmp/head")
wrong=$(status carol:wrong)
unknown=$(status mallory:carol123)
if [ "$none" = 401 ] && [ "$wrong" = 401 ] && [ "$unknown" = 401 ] && grep -qi '^WWW-Authenticate: Basic' <<<"$head_none" &&
   grep -qi '^X-Frame-Options: deny' <<<"$head_none"; then
  ok "401 with WWW-Authenticate: Basic (and the configured header) without credentials, with a wrong password, for an unknown user"
else
  notok "401s: none $none, wrong $wrong, unknown $unknown"; diag <<<"$head_none"
fi
# CVE-2022-46146: with a cache keyed by user, hash and password run together, this first
# login made the second one's key, and let it in.
hash=$(awk '$1 == "carol:" { print $2 }' "$config")
poison=$(status "carol$hash:fakepassword")
bypass=$(status "carol:${hash}fakepassword")
poison_hash="\$2y\$10\$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi"
bypass2=$(status "carol:${poison_hash}fakepassword")
if [ "$poison" = 401 ] && [ "$bypass" = 401 ] && [ "$bypass2" = 401 ]; then
  ok "the CVE-2022-46146 cache bypass is refused (401, 401, 401)"
else
  notok "cache bypass: $poison $bypass $bypass2"
fi
right=$(status carol:carol123); head_right=$(cat "$tmp/head")
again=$(status carol:carol123)
if [ "$right" = 200 ] && [ "$again" = 200 ] && grep -qi '^X-Frame-Options: deny' <<<"$head_right" &&
   [ "$(status carol:carol123 /-/healthy)" = 200 ]; then
  ok "200 with the right password (and again, from the cache), with the configured header"
else
  notok "the right password: $right, $again"; diag <<<"$head_right"
fi

# --- A flood of wrong logins while the scraper scrapes.
for i in $(seq 300); do
  curl -s -o /dev/null -w '%{http_code}\n' -u "mallory:wrong$i" --max-time 60 "$url/metrics" >>"$tmp/flood.codes" 2>/dev/null &
done
for i in $(seq 30); do
  curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -u carol:carol123 --max-time 60 "$url/metrics" >>"$tmp/scrapes"
done
wait_flood() { [ "$(wc -l <"$tmp/flood.codes")" -ge 300 ]; }
for i in $(seq 900); do wait_flood && break; sleep 0.1; done
slowest=$(sort -k2 -n "$tmp/scrapes" | tail -1 | awk '{print $2}')
codes=$(sort "$tmp/flood.codes" | uniq -c | tr '\n' ' ')
if ! grep -qv '^200 ' "$tmp/scrapes" && awk -v s="$slowest" 'BEGIN { exit !(s < 2) }' && wait_flood &&
   ! grep -Eqv '^(401|429)$' "$tmp/flood.codes" && grep -q '^429$' "$tmp/flood.codes"; then
  ok "300 wrong logins at once: the scraper's 30 scrapes all 200, the slowest ${slowest} s; the flood: $codes(401 checked, 429 past what may wait)"
else
  notok "the flood: scrapes $(cut -d' ' -f1 "$tmp/scrapes" | sort | uniq -c | tr '\n' ' '), slowest $slowest s; flood codes: $codes"
fi

# --- Read again when it changes; a broken change keeps the last good one.
write_config "  erin: $(awk '$1 == "dave:" { print $2 }' "$config")"$'\n'
erin=""
for i in $(seq 600); do erin=$(status erin:dave123); [ "$erin" = 200 ] && break; sleep 0.1; done
if [ "$erin" = 200 ] && grep -q "web configuration .* read again" "$tmp/serve.err"; then
  ok "a changed file is read again: the new user logs in (200), and it is said"
else
  notok "a changed file: erin $erin"; diag <"$tmp/serve.err"
fi
printf 'basic_auth_users: [broken\n' >"$config.new" && mv "$config.new" "$config"
said=""
for i in $(seq 600); do
  status erin:dave123 >/dev/null
  grep -q "changed and does not read; the last good one stays" "$tmp/serve.err" && { said=yes; break; }
  sleep 0.1
done
if [ "$said" = yes ] && [ "$(status erin:dave123)" = 200 ] && [ "$(status "")" = 401 ]; then
  ok "a broken change keeps the last good configuration (still 200 for erin, 401 without), and says why"
else
  notok "a broken change"; diag <"$tmp/serve.err"
fi
# SIGHUP: no request comes, yet the file is read again, at once.
before=$(grep -c "read again" "$tmp/serve.err")
write_config "  frank: $(grep -E '^  dave:' "$fixtures/exporter-toolkit/web_config_users_noTLS.good.yml" | awk '{print $2}')"$'\n'
kill -HUP "${pids[0]}"
reread=""
for i in $(seq 100); do [ "$(grep -c "read again" "$tmp/serve.err")" -gt "$before" ] && { reread=yes; break; }; sleep 0.1; done
if [ "$reread" = yes ] && kill -0 "${pids[0]}" 2>/dev/null && [ "$(status frank:dave123)" = 200 ]; then
  ok "SIGHUP reads the file again at once (no request needed; frank logs in), and serve goes on"
else
  notok "SIGHUP: read again '$reread'"; diag <"$tmp/serve.err"
fi
stop_serves

# --- TLS.
command -v openssl >/dev/null || bail_out "openssl is on PATH (Scripts/setup --lab installs it)"
toolkit="$fixtures/exporter-toolkit"
# A server certificate of the test's own (CN and SAN 127.0.0.1), to rotate to.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$tmp/rotated.key" -out "$tmp/rotated.crt" >/dev/null 2>&1 || bail_out "openssl makes a certificate"
cp "$toolkit/server.crt" "$tmp/server.crt"; cp "$toolkit/server.key" "$tmp/server.key"
cat >"$tmp/tls.yml" <<YAML
tls_server_config:
  cert_file: server.crt
  key_file: server.key
basic_auth_users:
$(grep -E '^  carol:' "$toolkit/web_config_users_noTLS.good.yml")
YAML
start_serve "$tmp/tls.err" --replay "$replay" --listen 127.0.0.1:0 --web-config "$tmp/tls.yml" ||
  { diag <"$tmp/tls.err"; bail_out "serve with TLS says where it listens"; }
tls_url=$served
tls_get() { curl -s -o /dev/null -w '%{http_code}' --cacert "$toolkit/server.crt" "$@"; }
with_login=$(tls_get -u carol:carol123 "$tls_url/metrics")
without=$(tls_get "$tls_url/metrics")
tls_get --tls-max 1.1 -u carol:carol123 "$tls_url/metrics" >/dev/null; old=$?
plain=$(curl -s -D "$tmp/plain.head" -o "$tmp/plain.body" -w '%{http_code}' "http://${tls_url#https://}/metrics")
if [ "$with_login" = 200 ] && [ "$without" = 401 ] && [ "$old" = 35 ] && [ "$plain" = 400 ] &&
   grep -q "HTTP request to an HTTPS server" "$tmp/plain.body"; then
  ok "HTTPS: 200 with the login, 401 without; TLS 1.1 refused in the handshake (curl 35); plain HTTP told 400 and closed"
else
  notok "HTTPS: login $with_login, none $without, TLS 1.1 curl $old, plain $plain"; diag <"$tmp/tls.err"
fi
# Rotation: new files, new connections served with them (the old certificate no longer checks).
cp "$tmp/rotated.crt" "$tmp/server.crt.new"; cp "$tmp/rotated.key" "$tmp/server.key.new"
mv "$tmp/server.key.new" "$tmp/server.key"; mv "$tmp/server.crt.new" "$tmp/server.crt"
rotated=""
for i in $(seq 100); do
  rotated=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$tmp/rotated.crt" -u carol:carol123 "$tls_url/metrics")
  [ "$rotated" = 200 ] && break; sleep 0.1
done
if [ "$rotated" = 200 ] && [ "$(tls_get -u carol:carol123 "$tls_url/metrics")" = 000 ] && kill -0 "${pids[-1]}"; then
  ok "a rotated certificate is served to new connections, without a restart"
else
  notok "rotation: $rotated"; diag <"$tmp/tls.err"
fi
stop_serves

# Mutual TLS: exporter-toolkit's RequireAndVerifyClientCert file (its client CA, its clients).
cat >"$tmp/mtls.yml" <<YAML
tls_server_config:
  cert_file: $toolkit/server.crt
  key_file: $toolkit/server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: $toolkit/client_selfsigned.pem
YAML
start_serve "$tmp/mtls.err" --replay "$replay" --listen 127.0.0.1:0 --web-config "$tmp/mtls.yml"
mtls_url=$served
none_code=$(tls_get "$mtls_url/metrics")
other_code=$(tls_get --cert "$toolkit/client2_selfsigned.pem" --key "$toolkit/client2_selfsigned.key" "$mtls_url/metrics")
good_code=$(tls_get --cert "$toolkit/client_selfsigned.pem" --key "$toolkit/client_selfsigned.key" "$mtls_url/metrics")
if [ "$none_code" = 000 ] && [ "$other_code" = 000 ] && [ "$good_code" = 200 ]; then
  ok "mutual TLS: no client certificate, or one the CA did not sign, refused in the handshake; the right one 200"
else
  notok "mutual TLS: none $none_code, other $other_code, right $good_code"; diag <"$tmp/mtls.err"
fi
stop_serves

# Prometheus scrapes over TLS with basic_auth: up 1; the same target with a wrong password: up 0.
if command -v prometheus >/dev/null; then
  start_serve "$tmp/tls2.err" --replay "$replay" --listen 127.0.0.1:0 --web-config "$tmp/tls.yml"
  target=${served#https://}
  prom_port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cat >"$tmp/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: right
    scheme: https
    tls_config: { ca_file: $tmp/rotated.crt, server_name: 127.0.0.1 }
    basic_auth: { username: carol, password: carol123 }
    static_configs: [{ targets: ["$target"] }]
  - job_name: wrong
    scheme: https
    tls_config: { ca_file: $tmp/rotated.crt, server_name: 127.0.0.1 }
    basic_auth: { username: carol, password: not-it }
    static_configs: [{ targets: ["$target"] }]
YAML
  prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
    --web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$tmp/prometheus.log" 2>&1 &
  pids+=($!)
  ups=""
  for i in $(seq 600); do
    ups=$(curl -s "http://127.0.0.1:$prom_port/api/v1/query?query=up" | "$PY" -c '
import json, sys
try:
    r = json.load(sys.stdin)["data"]["result"]
except Exception:
    sys.exit(0)
print(" ".join(sorted("%s=%s" % (x["metric"]["job"], x["value"][1]) for x in r)))' 2>/dev/null)
    [ "$ups" = "right=1 wrong=0" ] && break; sleep 0.1
  done
  if [ "$ups" = "right=1 wrong=0" ]; then
    ok "Prometheus with tls_config and basic_auth: up 1; with a wrong password: up 0"
  else
    notok "Prometheus over TLS: '$ups'"; diag <"$tmp/prometheus.log"
  fi
  stop_serves
else
  notok "prometheus is on PATH (Scripts/setup --lab installs it)"
fi

# --- --check-config.
"$bin" serve --web-config "$fixtures/exporter-toolkit/web_config_users_noTLS.good.yml" --check-config 2>"$tmp/check-good.err"; good=$?
"$bin" serve --web-config "$fixtures/cases/cost3.yml" --check-config 2>"$tmp/check-bad.err"; bad=$?
"$bin" serve --web-config "$tmp/missing.yml" --check-config 2>"$tmp/check-missing.err"; missing=$?
if [ "$good" = 0 ] && [ "$bad" = 78 ] && grep -q "cost 3 is outside 4 to 31" "$tmp/check-bad.err" && [ "$missing" = 78 ] &&
   grep -q "missing.yml: no such file" "$tmp/check-missing.err"; then
  ok "--check-config: 0 for a good file; 78 with the reason for a bad one and a missing one"
else
  notok "--check-config: good $good, bad $bad, missing $missing"; diag <"$tmp/check-bad.err"; diag <"$tmp/check-missing.err"
fi

done_testing
