#!/usr/bin/env bash
# prometheus-examples-test.sh: the Prometheus examples (Examples/prometheus/) are valid and say
# what they claim, checked with promtool (Debian's prometheus package):
#  - promtool check config prometheus.yml (with the rule file it names);
#  - promtool check rules cast-scan.rules.yml;
#  - promtool test rules cast-scan.rules.test.yml: a missing device fires CastDeviceMissing, a
#    failed backend and a target that is not scraped fire CastDiscoveryDown, a listed device
#    that cannot be reached over its Cast channel fires CastDeviceUnreachable, a healthy
#    network fires nothing;
#  - the unit tests can fail: with an alert's expression replaced by one that never fires, or
#    one that always fires, promtool test rules fails.
# Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
examples="$here/Examples/prometheus"
. "$here/Tests/Scripts/tap-lib.sh" prometheus-examples

if ! command -v promtool >/dev/null; then
  bail_out "promtool is on PATH (Debian: apt-get install prometheus, which Scripts/setup --lab installs)"
fi
ok "promtool: $(promtool --version 2>&1 | head -1)"

if promtool check config "$examples/prometheus.yml" >"$tmp/config.log" 2>&1; then
  ok "promtool check config prometheus.yml ($(grep -o '[0-9]* rule files found' "$tmp/config.log"))"
else
  notok "promtool check config prometheus.yml"; diag <"$tmp/config.log"
fi
if promtool check rules "$examples/cast-scan.rules.yml" >"$tmp/rules.log" 2>&1; then
  ok "promtool check rules cast-scan.rules.yml ($(grep -o '[0-9]* rules found' "$tmp/rules.log"))"
else
  notok "promtool check rules cast-scan.rules.yml"; diag <"$tmp/rules.log"
fi
if (cd "$examples" && promtool test rules cast-scan.rules.test.yml) >"$tmp/test.log" 2>&1; then
  ok "promtool test rules cast-scan.rules.test.yml: $(grep -c '^  - name:' "$examples/cast-scan.rules.test.yml") cases pass"
else
  notok "promtool test rules cast-scan.rules.test.yml"; diag <"$tmp/test.log"
fi

# Mutants: the rules with one alert's expression replaced, in a copy beside the test file.
# Each must make the unit tests fail, or they do not test that alert.
for alert in CastDeviceMissing CastDiscoveryDown CastDeviceUnreachable CastDeviceNotAuthenticated; do
  for mutant in never always; do
    expr='vector(1) == 0'; [ "$mutant" = always ] && expr='vector(1)'
    dir="$tmp/$alert-$mutant"; mkdir -p "$dir"
    cp "$examples/cast-scan.rules.test.yml" "$dir/"
    if ! "$PY" - "$examples/cast-scan.rules.yml" "$dir/cast-scan.rules.yml" "$alert" "$expr" <<'PY' 2>"$tmp/mutant.log"; then
import sys, yaml
source, target, alert, expr = sys.argv[1:]
doc = yaml.safe_load(open(source))
rules = [r for g in doc["groups"] for r in g["rules"] if r.get("alert") == alert]
assert len(rules) == 1, f"{alert}: {len(rules)} rules"
rules[0]["expr"] = expr
yaml.safe_dump(doc, open(target, "w"))
PY
      notok "$alert: a rule file with its expression replaced ($mutant fires)"; diag <"$tmp/mutant.log"; continue
    fi
    if (cd "$dir" && promtool test rules cast-scan.rules.test.yml) >"$tmp/mutant.log" 2>&1; then
      notok "the unit tests pass with $alert's expression replaced by one that $mutant fires ($expr)"
    elif grep -q "alertname: $alert" "$tmp/mutant.log"; then
      ok "the unit tests fail when $alert $mutant fires (failing checks: $(grep -c "alertname: $alert" "$tmp/mutant.log"))"
    else
      notok "with $alert $mutant firing, promtool test rules fails but names no $alert check"; head -20 "$tmp/mutant.log" | diag
    fi
  done
done
done_testing
