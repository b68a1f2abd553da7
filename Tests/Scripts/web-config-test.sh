#!/usr/bin/env bash
# web-config-test.sh: `cast-scan serve --web-config FILE`, the web configuration file
# Prometheus' exporters share, over loopback only, serving a recorded network (no lab):
#  - every file of Fixtures/web-config (exporter-toolkit 0.8.2's test data and cases of our
#    own) gets the same verdict from `serve --check-config` as from `promtool check
#    web-config`; the files with TLS promtool accepts are refused only because this version
#    does not serve TLS (78, saying so), each listed;
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
if [ -n "${CAST_SCAN_BIN_DIR:-}" ]; then
  bin=$CAST_SCAN_BIN_DIR/cast-scan
else
  (cd "$here" && swift build --product cast-scan >"$tmp/build" 2>&1) || { diag <"$tmp/build"; bail_out "cast-scan builds"; }
  bin=$(cd "$here" && swift build --show-bin-path)/cast-scan
fi
[ -x "$bin" ] || bail_out "no cast-scan at $bin"

pids=()
test_cleanup() {
  local pid
  for pid in "${pids[@]+"${pids[@]}"}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
}

# --- The same verdict as promtool, file by file.
same=0 tls_only=() differ=()
for file in "$fixtures"/exporter-toolkit/*.yml "$fixtures"/cases/*.yml; do
  promtool check web-config "$file" >/dev/null 2>&1; theirs=$?
  "$bin" serve --web-config "$file" --check-config >/dev/null 2>"$tmp/ours.err"; ours=$?
  name=${file#"$fixtures"/}
  if { [ "$theirs" = 0 ] && [ "$ours" = 0 ]; } || { [ "$theirs" != 0 ] && [ "$ours" = 78 ]; }; then
    same=$((same + 1))
  elif [ "$theirs" = 0 ] && [ "$ours" = 78 ] && grep -q "does not serve TLS yet" "$tmp/ours.err"; then
    tls_only+=("$name")
  else
    differ+=("$name (promtool $theirs, cast-scan $ours: $(tr '\n' ' ' <"$tmp/ours.err"))")
  fi
done
if [ ${#differ[@]} = 0 ] && [ "$same" -ge 60 ]; then
  ok "$same web configuration files: the same verdict as promtool check web-config; ${#tls_only[@]} with TLS refused only because TLS is not served yet"
  printf '%s\n' "${tls_only[@]}" | diag
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
"$bin" serve --replay "$replay" --listen 127.0.0.1:0 --web-config "$config" 2>"$tmp/serve.err" &
pids+=($!)
for i in $(seq 600); do grep -Eq 'listening on http://127\.0\.0\.1:[0-9]+/' "$tmp/serve.err" && break; sleep 0.1; done
url=$(grep -Eo 'http://127\.0\.0\.1:[0-9]+' "$tmp/serve.err" | head -1)
[ -n "$url" ] || { diag <"$tmp/serve.err"; bail_out "serve --web-config says where it listens"; }

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
test_cleanup; pids=()

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
