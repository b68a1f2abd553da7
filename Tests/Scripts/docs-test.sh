#!/usr/bin/env bash
# docs-test.sh: the documentation site (Scripts/docs) builds, its articles' code compiles, and a
# browser renders it:
#  - Scripts/docs makes a DocC archive for every library product of Package.swift, with DocC's
#    warnings as errors, and index.html links each (every link answers when served);
#  - the check can fail: a catalog given a link to a symbol that does not exist makes Scripts/docs
#    fail and name it;
#  - the Swift listings of each article and landing page, in order, typecheck as one file against
#    the built modules (the articles' code is the real API);
#  - the site served on 127.0.0.1 (python3 -m http.server on a port it picks), headless Chromium
#    (Debian's chromium) renders the article "Listing the Devices Once" (DocC renders pages with
#    JavaScript): its DOM has the article's title and a code listing; a screenshot is kept
#    ($CAST_SCAN_ARTIFACTS, default .build/test-artifacts, as the serve suite's) and must be a PNG
#    of a real page;
#  - the check can fail: a page that does not exist, and another article, do not pass it.
# CAST_SCAN_BIN_DIR set (make test: swift test's debug build is there): the docs read that build
# and nothing is built. Else Scripts/docs brings the build in $SWIFT_SCRATCH (default .build) up to
# date. DOCS_OUTPUT: where the site goes (default .build/docs).
# Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="/opt/swift/usr/bin:$PATH"
site=${DOCS_OUTPUT:-$here/.build/docs}
artefacts=${CAST_SCAN_ARTIFACTS:-$here/.build/test-artifacts}
server_pid=""
. "$here/Tests/Scripts/tap-lib.sh" docs-test
test_cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
}
cd "$here" || bail_out "cd $here"

for tool in chromium docc "$PY"; do
  command -v "$tool" >/dev/null || bail_out "$tool is installed (Scripts/setup --lab installs chromium)"
done
if [ -n "${CAST_SCAN_BIN_DIR:-}" ]; then
  build=$(cd "$CAST_SCAN_BIN_DIR/.." && pwd) || bail_out "no build at CAST_SCAN_BIN_DIR ($CAST_SCAN_BIN_DIR)"
  docs_build=(--build-dir "$build" --no-build)
else
  build=${SWIFT_SCRATCH:-$here/.build}
  docs_build=(--build-dir "$build")
fi

# ---------------------------------------------------------------- the site
if Scripts/docs "${docs_build[@]}" --output "$site" >"$tmp/docs.log" 2>&1; then
  ok "$(tail -1 "$tmp/docs.log")"
else
  diag <"$tmp/docs.log"; bail_out "Scripts/docs failed"
fi
products=$(grep -o '\.library(name: "[A-Za-z]*"' Package.swift | cut -d'"' -f2 | sort -u)
missing=()
for product in $products; do
  lower=$(echo "$product" | tr '[:upper:]' '[:lower:]')
  [ -f "$site/$product/documentation/$lower/index.html" ] && grep -q "href=\"$product/documentation/$lower/\"" \
    "$site/index.html" || missing+=("$product")
done
if [ ${#missing[@]} = 0 ]; then
  ok "an archive for each of the $(echo "$products" | wc -w) library products, each linked from index.html"
else
  notok "library products without an archive or a link in index.html: ${missing[*]}"
fi

# A broken link must fail the build: a copy of the smallest catalog with a link to no symbol.
mkdir -p "$tmp/catalogs/CastDiscoveryBackends"
cp -R Sources/CastDiscoveryBackends/CastDiscoveryBackends.docc "$tmp/catalogs/CastDiscoveryBackends/"
printf '\n## See Also\n\n- ``NoSuchSymbolAnywhere``\n' \
  >>"$tmp/catalogs/CastDiscoveryBackends/CastDiscoveryBackends.docc/CastDiscoveryBackends.md"
Scripts/docs --build-dir "$build" --no-build --catalogs "$tmp/catalogs" --output "$tmp/broken" \
  CastDiscoveryBackends >"$tmp/broken.log" 2>&1
status=$?
if [ "$status" != 0 ] && grep -q "NoSuchSymbolAnywhere" "$tmp/broken.log" \
    && [ ! -e "$tmp/broken/CastDiscoveryBackends" ]; then
  ok "a link to a symbol that does not exist fails Scripts/docs (exit $status), named, and leaves no archive"
else
  notok "a broken link did not fail Scripts/docs (exit $status)"; diag <"$tmp/broken.log"
fi

# ---------------------------------------------------------------- the articles' code
# Each catalog page's ```swift listings, in order, make one file that must typecheck.
mapfile -t swift_flags < <(Scripts/docs --build-dir "$build" --swift-flags)
mkdir -p "$tmp/listings"
listing() { echo "$tmp/listings/$(basename "$(dirname "$1")" .docc)-$(basename "$1" .md).swift"; } # PAGE
typecheck() { # PAGE: 0 when its listings typecheck (or it has none)
  local file; file=$(listing "$1")
  awk '/^```swift$/ { on = 1; next } /^```/ { on = 0 } on' "$1" >"$file"
  [ -s "$file" ] || return 0
  swiftc -typecheck -swift-version 6 -module-name ArticleListings "${swift_flags[@]}" "$file" >"$file.log" 2>&1
}
checked=0 broken=() started=$(date +%s%N)
declare -A checking=()
checked_one() { # waits for one typecheck (two run at a time) and counts it
  local pid status
  wait -n -p pid "${!checking[@]}"; status=$?
  [ "$status" = 0 ] || broken+=("${checking[$pid]}")
  unset "checking[$pid]"
}
for page in Sources/*/*.docc/*.md; do
  grep -q '^```swift$' "$page" || continue
  checked=$((checked + 1))
  [ ${#checking[@]} -ge 2 ] && checked_one
  typecheck "$page" &
  checking[$!]=$page
done
while [ ${#checking[@]} -gt 0 ]; do checked_one; done
if [ ${#broken[@]} = 0 ] && [ "$checked" -gt 0 ]; then
  ok "the Swift listings of $checked catalog pages typecheck against the built modules" \
    "($(( ($(date +%s%N) - started) / 1000000 )) ms)"
else
  notok "listings that do not typecheck: ${broken[*]:-none checked}"
  for page in "${broken[@]}"; do
    echo "$page:" | diag
    diag <"$(listing "$page").log"
  done
fi

# ---------------------------------------------------------------- served, rendered
"$PY" -u -m http.server --bind 127.0.0.1 --directory "$site" 0 >"$tmp/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 100); do # the server says its port once it listens; 10 s at most
  port=$(grep -o 'port [0-9]*' "$tmp/server.log" | awk '{ print $2; exit }')
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -n "$port" ]; then # http.server prints its port once it listens
  ok "the site is served on 127.0.0.1:$port (python3 -m http.server, pid $server_pid)"
else
  diag <"$tmp/server.log"; bail_out "the site's server did not start"
fi
base=http://127.0.0.1:$port
if out=$("$PY" - "$base" <<'PY' 2>&1
import html.parser, sys, urllib.request
base = sys.argv[1]
class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.links = []
    def handle_starttag(self, tag, attrs):
        if tag == "a": self.links.append(dict(attrs)["href"])
page = Links(); page.feed(urllib.request.urlopen(base + "/", timeout=10).read().decode())
assert page.links, "index.html links to nothing"
for link in page.links:
    with urllib.request.urlopen(f"{base}/{link}", timeout=10) as answer:
        assert answer.status == 200, (link, answer.status)
print(f"{len(page.links)} links, each answers 200")
PY
); then
  ok "index.html served: $out"
else
  notok "index.html served: $(echo "$out" | tail -1)"
fi

mkdir -p "$artefacts"
chrome=(timeout 90 chromium --headless=new --no-sandbox --disable-gpu --user-data-dir="$tmp/chromium"
  --virtual-time-budget=15000)
# rendered URL TITLE NAME: Chromium's DOM of URL (in $tmp/NAME.html) has TITLE as a page title and
# a code listing; prints what it found.
rendered() {
  "${chrome[@]}" --dump-dom "$1" >"$tmp/$3.html" 2>>"$tmp/chromium.log"
  "$PY" - "$tmp/$3.html" "$2" <<'PY'
import html.parser, sys
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.titles = []; self.listings = []; self.where = None; self.text = ""
    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "h1" and "title" in classes: self.where, self.text = "title", ""
        if tag == "pre": self.where, self.text = "pre", ""
    def handle_endtag(self, tag):
        if tag == "h1" and self.where == "title": self.titles.append(self.text.strip()); self.where = None
        if tag == "pre" and self.where == "pre": self.listings.append(self.text); self.where = None
    def handle_data(self, data):
        if self.where: self.text += data
page = Page(); page.feed(open(sys.argv[1], encoding="utf-8").read())
code = [listing for listing in page.listings if "DiscoveryManager" in listing and "scan(timeout:" in listing]
print(f"titles {page.titles}, {len(page.listings)} code listings, {len(code)} with a scan")
sys.exit(0 if sys.argv[2] in page.titles and code else 1)
PY
}
article=$base/CastDiscovery/documentation/castdiscovery/listingdevicesonce/
title="Listing the Devices Once"
if out=$(rendered "$article" "$title" article 2>&1); then
  ok "headless Chromium renders $article: $out"
else
  notok "headless Chromium's DOM of $article: $out"; diag <"$tmp/chromium.log"
fi
shot=$artefacts/docs-listing-devices-once.png
rm -f "$shot"
"${chrome[@]}" --window-size=1280,1800 --screenshot="$shot" "$article" >>"$tmp/chromium.log" 2>&1
if out=$("$PY" - "$shot" <<'PY' 2>&1
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
chunks, at = [], 8
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    if kind == b"IDAT": chunks.append(data[at + 8:at + 8 + length])
    at += 12 + length
pixels = zlib.decompress(b"".join(chunks))
row = len(pixels) // height
rows = {pixels[i * row + 1:(i + 1) * row] for i in range(height)}
assert (width, height) == (1280, 1800), f"{width}x{height}"
assert len(data) > 50_000 and len(rows) > 200, f"{len(data)} bytes, {len(rows)} distinct rows: an empty page?"
print(f"{width}x{height}, {len(data) // 1024} KiB, {len(rows)} distinct pixel rows")
PY
); then
  ok "screenshot kept: $shot ($out)"
else
  notok "the screenshot $shot: $(echo "$out" | tail -1)"; diag <"$tmp/chromium.log"
fi

# The check can fail: a page that is not there, and another article, do not pass as the article.
if out=$(rendered "$base/CastDiscovery/documentation/castdiscovery/no-such-article/" "$title" missing 2>&1); then
  notok "a page that does not exist passed the check: $out"
else
  ok "a page that does not exist does not render \"$title\" ($out)"
fi
if out=$(rendered "$base/CastDiscovery/documentation/castdiscovery/watchingdevices/" "$title" other 2>&1); then
  notok "another article passed as \"$title\": $out"
else
  ok "another article does not pass as \"$title\" ($out)"
fi
done_testing
