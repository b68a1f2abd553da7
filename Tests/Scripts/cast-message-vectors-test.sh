#!/usr/bin/env bash
# cast-message-vectors-test.sh: the CastMessage codec against Google's protobuf with vectors
# made now, with a seed of this run (the committed ones use seed 33):
#  - Tests/Scripts/cast-message-vectors.py writes 900 vectors (Google's encoding of random
#    messages; fields in any order among unknown ones; altered messages and Google's verdict)
#    into a temporary file, and checks its descriptor against pychromecast's generated code;
#  - CastMessageVectorTests reads them (CAST_MESSAGE_VECTORS): the codec writes Google's bytes
#    and reads what Google reads;
#  - the check can fail: with one vector's bytes changed, the same tests fail.
# The venv: .build/protobuf-venv (Tests/Scripts/cast-message-vectors.requirements.txt), made
# when missing. CAST_SCAN_BIN_DIR set (make test: the tests were built by swift test): no build.
# Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
venv=${PROTOBUF_VENV:-$here/.build/protobuf-venv}
req="$here/Tests/Scripts/cast-message-vectors.requirements.txt"
. "$here/Tests/Scripts/tap-lib.sh" cast-message-vectors
cd "$here"

want=$(sed -n 's/^protobuf==//p' "$req")
if [ "$("$venv/bin/python" -c 'import google.protobuf, pychromecast; print(google.protobuf.__version__)' 2>/dev/null)" != "$want" ]; then
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv" && "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req" ||
    bail_out "the protobuf venv ($venv) could not be made"
fi
ok "Google's protobuf $want in $venv"

if [ -z "${CAST_SCAN_BIN_DIR:-}" ] && ! swift build --build-tests >"$tmp/build.log" 2>&1; then
  cat "$tmp/build.log" >&2; bail_out "the tests do not build"
fi

seed=$(( $(date +%s) % 1000000 ))
if "$venv/bin/python" Tests/Scripts/cast-message-vectors.py --seed "$seed" --count 300 "$tmp/vectors.json" 2>"$tmp/gen.log" &&
   ! grep -q "not compared" "$tmp/gen.log"; then
  ok "vectors made with seed $seed; the descriptor writes what pychromecast's cast_channel_pb2 writes"
else
  cat "$tmp/gen.log" >&2; bail_out "the vectors (seed $seed) could not be made"
fi

run_vectors() {
  CAST_MESSAGE_VECTORS=$1 swift test --skip-build --filter CastMessageVectorTests >"$2" 2>&1
}
if run_vectors "$tmp/vectors.json" "$tmp/run.log" && grep -q "Test run with 3 tests" "$tmp/run.log"; then
  ok "the codec against Google's vectors of seed $seed (3 tests)"
else
  grep -E "✘|error" "$tmp/run.log" | head -20 >&2; notok "the codec against Google's vectors of seed $seed"
fi

# The check can fail: the first "encode" vector's last byte changed. The mutant must differ from
# the vectors in that byte only, and the run must fail in the encoding test on that vector's
# bytes: a run that fails for another reason proves nothing.
if mutant=$("$venv/bin/python" - "$tmp/vectors.json" "$tmp/broken.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for v in doc["vectors"]:
    if v["kind"] == "encode":
        last = int(v["bytes"][-2:], 16) ^ 0x01
        v["bytes"] = v["bytes"][:-2] + f"{last:02x}"
        print(v["bytes"])
        break
json.dump(doc, open(sys.argv[2], "w"))
PY
) && [ -n "$mutant" ] && "$venv/bin/python" - "$tmp/vectors.json" "$tmp/broken.json" "$mutant" <<'PY'
import json, sys
a, b = (json.load(open(p))["vectors"] for p in sys.argv[1:3])
changed = [(x, y) for x, y in zip(a, b) if x != y]
assert len(a) == len(b) and len(changed) == 1, "%d vectors changed" % len(changed)
(x, y), = changed
assert {k for k in x if x[k] != y.get(k)} == {"bytes"} and y["bytes"] == sys.argv[3], (x, y)
assert x["bytes"][:-2] == y["bytes"][:-2] and int(x["bytes"][-2:], 16) ^ int(y["bytes"][-2:], 16) == 1
PY
then
  ok "the mutant: one encode vector's last byte changed (...${mutant: -8}), nothing else"
  if run_vectors "$tmp/broken.json" "$tmp/broken.log"; then
    notok "a changed vector passed: the check cannot fail"
  elif grep -qE "^[^ ]+ Test \"every message Google encodes[^\"]*\" failed" "$tmp/broken.log" &&
    grep -F "encoding differs from Google's: $mutant" "$tmp/broken.log" | grep -q .; then
    ok "the changed vector fails the encoding test, which names its bytes"
  else
    grep -E "✘|Test run" "$tmp/broken.log" | head -20 | diag
    notok "the changed vector did not fail the encoding test on its bytes (see above)"
  fi
else
  notok "the mutant could not be written, or differs in more than one byte (${mutant:-nothing written})"
fi
done_testing
