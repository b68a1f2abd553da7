#!/usr/bin/env bash
# deviceauth-fixtures-test.sh: the committed script that makes Fixtures/deviceauth still makes
# them. Tests/Scripts/deviceauth-fixtures.sh writes a fresh set into a temporary directory (new
# keys, so new bytes): the same files as the committed set, the same openssl verify answer on
# every chain (Fixtures/deviceauth/openssl-verify.txt, which DeviceAuthVerifierTests holds the
# verifier to), and every certificate of the fresh set has the subject and validity period of
# its committed namesake. Needs the openssl command (Scripts/setup --lab). Ends with "N passed,
# M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/tap-lib.sh" deviceauth-fixtures-test
committed=$here/Fixtures/deviceauth

command -v openssl >/dev/null || bail_out "the openssl command is on PATH (Scripts/setup --lab installs it)"
if bash "$here/Tests/Scripts/deviceauth-fixtures.sh" "$tmp/fresh" >"$tmp/make.log" 2>&1; then
  ok "deviceauth-fixtures.sh makes a fresh set ($(ls "$tmp/fresh" | wc -l) files)"
else
  notok "deviceauth-fixtures.sh makes a fresh set"; diag <"$tmp/make.log"
fi
if diff <(ls "$committed") <(ls "$tmp/fresh") >"$tmp/ls.diff"; then
  ok "the fresh set has the committed set's files"
else
  notok "the fresh set has the committed set's files"; diag <"$tmp/ls.diff"
fi
if diff "$committed/openssl-verify.txt" "$tmp/fresh/openssl-verify.txt" >"$tmp/verify.diff"; then
  ok "openssl verify -attime answers the same on each of the $(wc -l <"$committed/openssl-verify.txt") chains"
else
  notok "openssl verify -attime answers the same on each chain"; diag <"$tmp/verify.diff"
fi
differ=""
for pem in "$committed"/*.pem; do
  name=$(basename "$pem")
  a=$(openssl x509 -in "$pem" -noout -subject -dates -ext basicConstraints,keyUsage,certificatePolicies 2>&1)
  b=$(openssl x509 -in "$tmp/fresh/$name" -noout -subject -dates -ext basicConstraints,keyUsage,certificatePolicies 2>&1)
  [ "$a" = "$b" ] || differ+="$name "
done
[ -z "$differ" ] && ok "every fresh certificate has its committed namesake's subject, period and extensions" ||
  notok "fresh certificates differ from the committed ones: $differ"
done_testing
