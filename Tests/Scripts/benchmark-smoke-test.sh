#!/usr/bin/env bash
# benchmark-smoke-test.sh: runs Benchmarks/run --smoke (1 lab device, 1 run, every figure once)
# so the benchmark cannot rot, and checks that its JSON has every figure, well formed.
# Needs root (the lab) and a free lab. Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/Tests/Scripts/tap-lib.sh" benchmark-smoke
out=$tmp/results.json
log=$tmp/log

t0=$SECONDS
"$here/Benchmarks/run" --smoke --out "$out" >"$log" 2>&1; rc=$?
if [ "$rc" = 0 ]; then ok "Benchmarks/run --smoke exits 0 ($((SECONDS - t0)) s with the build)"
else notok "Benchmarks/run --smoke exits 0 (got $rc)"; tail -n 30 "$log" | sed 's/^/#   /' >&2; fi
grep -q "^Targets: " "$log" && ok "it prints the table and the targets" || notok "it prints the table and the targets"

"$PY" - "$out" <<'PY' >"$log" 2>&1
import json, math, sys
try:
    doc = json.load(open(sys.argv[1]))
except (OSError, ValueError) as exc:
    print(f"not ok - the results file is JSON ({exc})"); sys.exit(0)

def num(v, positive=True):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and (v > 0 or not positive)

def get(d, path):
    for p in path.split("."):
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d

checks = []
for phase, tools in (("warm", ["castScan", "avahiBrowse", "pychromecastUntilAll", "pychromecastFixed"]),
                     ("cold", ["castScan", "avahiBrowse", "pychromecastUntilAll"])):
    for tool in tools:
        checks.append((f"lab.1.{phase}.{tool}.wall.median", True))
        checks.append((f"lab.1.{phase}.{tool}.minRecall", False))
    checks.append((f"lab.1.{phase}.castScan.maxRssKB.median", True))
    checks.append((f"lab.1.{phase}.castScan.cpu.median", True))
    checks.append((f"lab.1.{phase}.ratios.castScanToAvahiBrowse", True))
    checks.append((f"lab.1.{phase}.ratios.castScanToPychromecastUntilAll", True))
checks += [("lab.1.partialSubtype.castScan.wall.median", True), ("lab.1.partialSubtype.avahiBrowse.wall.median", True),
           ("lab.1.partialSubtype.castScan.minRecall", True), ("lab.1.partialSubtype.ratio", True)]
for tool in ("castScan", "avahiBrowse", "pychromecast"):
    checks.append((f"lab.1.latency.{tool}.insertMs.median", False))
    checks.append((f"lab.1.latency.{tool}.removeMs.median", False))
checks += [("watchMemory.1000.maxRssKB.median", True), ("watchMemory.10000.maxRssKB.median", True),
           ("watchMemory.ratio10000to1000", True), ("watchMemory.inProcess.ratio.median", True),
           ("parsing.castBench.median", True), ("parsing.zeroconfPychromecast.median", True),
           ("parsing.ratio", True), ("parsing.ratioTXTOnly", True),
           ("dnsDecoding.castBench.median", True), ("dnsDecoding.zeroconf.median", True), ("dnsDecoding.ratio", True),
           ("serve.scrapeBytes.ratio", True), ("serveLoad.tlsLoginGzip.scrapesPerSecond", True),
           ("machine.nproc", True), ("date", None)]
for path, positive in checks:
    v = get(doc, path)
    good = isinstance(v, str) and v if positive is None else num(v, positive)
    print(f"{'ok' if good else 'not ok'} - {path} {'present' if good else f'missing or malformed: {v!r}'}")
rec = get(doc, "lab.1.warm.castScan.minRecall")
print(f"{'ok' if rec == 1.0 else 'not ok'} - cast-scan lists the lab's device (recall {rec})")
print(f"{'ok' if get(doc, 'missing') == [] else 'not ok'} - the run reports no missing figure ({get(doc, 'missing')})")
print(f"{'ok' if isinstance(get(doc, 'targets'), dict) else 'not ok'} - targets are reported")
PY
while IFS= read -r line; do
  case "$line" in
    "ok - "*) ok "${line#ok - }" ;;
    "not ok - "*) notok "${line#not ok - }" ;;
    *) echo "# $line" ;;
  esac
done <"$log"
done_testing
