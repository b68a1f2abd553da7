#!/usr/bin/env bash
# package-test.sh: what a user installing cast-scan gets.
#  - The .deb (Scripts/build-deb): extracted with dpkg-deb -x, its binary runs with a clean
#    environment (no /opt/swift on PATH or LD_LIBRARY_PATH): --version exits 0 and names the
#    commit; ldd finds every library and no Swift or Foundation one, and not OpenSSL (loaded
#    when the channel is used: with libssl.so.3 unreadable a listing works and status exits 69);
#    Depends (every entry versioned) and Recommends; bind now, relro, no RUNPATH; DEBIAN/md5sums
#    matches.
#  - lintian --pedantic: no E: and no W: line (the I: and P: tags left are printed).
#  - The systemd units: systemd-analyze verify (the service and the socket) against the extracted root and once installed
#    (systemd is not PID 1 here: verify and security --offline work on files), its settings,
#    systemd-analyze security --offline's exposure (printed; at most 2.0), and every system
#    call of a listing, of a watch with --report and of serve answering a scrape (strace) in its
#    SystemCallFilter.
#  - The examples in /usr/share/doc/cast-scan/examples: the replay lists, the scenario plays
#    it, promtool test rules passes on the installed copy; the man page's FILES exist.
#  - Install and remove: dpkg -i (the unit disabled, /etc/default/cast-scan a conffile), then
#    dpkg -r and -P, leave the system as it was.
#  - The man page: renders with groff -ww without a warning; every option of every command's
#    --help is in the command's section of the man page, and the reverse.
#  - Completions: bash, loaded in a non-interactive bash, offers every subcommand and the
#    values of --backend and --permission; zsh parses (zsh -n).
#  - make install PREFIX=...: the same files; the installed binary runs.
#  - The example package (Examples/list-devices) builds and lists a recorded network.
# Needs root (dpkg -i). Ends with "N passed, M failed".
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="/opt/swift/usr/bin:$PATH"
. "$here/Tests/Scripts/tap-lib.sh" package-test
# A cast-scan strace runs in the background (below): strace's PID and its log, while it runs.
tracer="" tracer_log=""
# stop_traced: SIGTERM to the traced cast-scan, whose PID is the log's first line (its execve;
# waited for up to 5 s), then waits for strace, which ends with it. strace is killed only when
# the log never names the PID.
stop_traced() {
  [ -n "$tracer" ] || return 0
  local traced=""
  for _ in $(seq 50); do
    traced=$(awk 'NR == 1 && /execve\(/ { print $1 }' "$tracer_log" 2>/dev/null)
    [ -z "$traced" ] && kill -0 "$tracer" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$tracer" 2>/dev/null; then # strace runs, so its cast-scan does too
    if [ -n "$traced" ]; then kill -TERM "$traced" 2>/dev/null; else kill -KILL "$tracer" 2>/dev/null; fi
  fi
  wait "$tracer" 2>/dev/null
  tracer=""
}
test_cleanup() {
  stop_traced
  dpkg -s cast-scan >/dev/null 2>&1 && dpkg -P cast-scan >/dev/null 2>&1
}
clean_env() { env -i PATH=/usr/bin:/bin HOME="$tmp/home" "$@"; }

if dpkg -s cast-scan >/dev/null 2>&1; then bail_out "cast-scan is already installed (dpkg -r it first)"; fi
deb=$("$here/Scripts/build-deb" "$tmp/dist" 2>"$tmp/build.log" | tail -1)
if [ ! -f "$deb" ]; then diag <"$tmp/build.log"; bail_out "build-deb makes a package"; fi
ok "build-deb: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"

# --- The extracted package, without the toolchain.
dpkg-deb -x "$deb" "$tmp/x"
bin="$tmp/x/usr/bin/cast-scan"
version=$(clean_env "$bin" --version 2>&1); rc=$?
commit=$(git -C "$here" describe --always --dirty --abbrev=12 2>/dev/null)
if [ "$rc" = 0 ] && [[ "$version" =~ ^cast-scan\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ .+\)$ ]] && [[ "$version" == *"$commit"* ]]; then
  ok "the extracted binary runs without the toolchain: $version"
else
  notok "--version in a clean environment (exit $rc): $version (expected commit $commit)"
fi
libs=$(clean_env ldd "$bin" 2>&1)
if ! grep -q "not found" <<<"$libs" && ! grep -Eiq "libswift|libFoundation|libdispatch|/opt/swift" <<<"$libs"; then
  ok "ldd: every library found, none from Swift ($(wc -l <<<"$libs") libraries)"
else
  notok "ldd"; diag <<<"$libs"
fi
# OpenSSL is loaded by the commands that use the Cast channel, not linked: with libssl.so.3
# unreadable (an empty file over it, in a mount namespace of this test's own) a listing works,
# and status says what is missing with 69.
if ! grep -Eq "libssl|libcrypto" <<<"$libs"; then
  ok "ldd: neither libssl nor libcrypto is linked"
else
  notok "ldd: OpenSSL is linked"; diag <<<"$libs"
fi
libssl=$(readlink -f "$(ldconfig -p | awk '$1 == "libssl.so.3" { print $NF; exit }')")
without_openssl() {
  unshare --mount --propagation private sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$libssl" \
    env -i PATH=/usr/bin:/bin "$@"
}
without_openssl "$bin" --replay "$here/Fixtures/replay/living-room.json" --json >"$tmp/nossl-list.json" 2>"$tmp/nossl.err"; list_rc=$?
without_openssl "$bin" status 127.0.0.1:9 --timeout 1 >"$tmp/nossl-status.out" 2>"$tmp/nossl-status.err"; status_rc=$?
if [ -n "$libssl" ] && [ "$list_rc" = 0 ] && grep -q '"devices"' "$tmp/nossl-list.json" && [ "$status_rc" = 69 ] &&
   grep -q "OpenSSL (libssl3) cannot be loaded" "$tmp/nossl-status.err"; then
  ok "without a loadable libssl.so.3 a listing works (0) and status says OpenSSL is missing (69)"
else
  notok "without libssl.so.3 ($libssl): listing exit $list_rc, status exit $status_rc"
  diag <"$tmp/nossl.err"; diag <"$tmp/nossl-status.err"
fi
if clean_env "$bin" --replay "$here/Fixtures/replay/living-room.json" --json --state "$tmp/state.json" >"$tmp/list.json" 2>"$tmp/list.err" &&
   "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["devices"]) == 4 and d["toolVersion"], d' "$tmp/list.json"; then
  ok "the extracted binary lists a recorded network as JSON, with toolVersion"
else
  notok "a listing with the extracted binary"; diag <"$tmp/list.err"
fi
control=$(dpkg-deb -f "$deb" Depends Recommends Version Architecture)
if grep -q "libavahi-client3" <<<"$control" && grep -q "libsqlite3-0" <<<"$control" && grep -q "libcurl4" <<<"$control" &&
   grep -q "Recommends: avahi-daemon" <<<"$control" && grep -q "Architecture: $(dpkg --print-architecture)" <<<"$control"; then
  ok "control: $(grep Depends <<<"$control")"
else
  notok "control fields"; diag <<<"$control"
fi
# Every Depends entry (and each alternative) names a version: `package (>= 1.2)`.
unversioned=$(dpkg-deb -f "$deb" Depends | tr ',|' '\n\n' | sed -E 's/^ +| +$//g' | grep -v '^$' |
  grep -Ev '^[a-z0-9][a-z0-9+.-]+ \((>=|<=|=|>>|<<) [^ )]+\)$')
if [ -z "$unversioned" ] && dpkg-deb -f "$deb" Depends | grep -Eq 'libcurl4 \(>= [0-9]' &&
   dpkg-deb -f "$deb" Depends | grep -Eq 'libmicrohttpd12 \(>= [0-9]' && dpkg-deb -f "$deb" Depends | grep -Eq 'libsystemd0 \(>= [0-9]' &&
   dpkg-deb -f "$deb" Depends | grep -Eq 'libavahi-client3 \(>= [0-9]' && dpkg-deb -f "$deb" Depends | grep -Eq 'libssl3 \(>= [0-9]'; then
  ok "every Depends entry has a version (dpkg-shlibdeps, and libssl3, libcurl4, libmicrohttpd12, libsystemd0 for dlopen)"
else
  notok "Depends entries without a version: $(echo $unversioned)"
fi
dynamic=$(readelf -d "$bin" 2>&1); segments=$(readelf -lW "$bin" 2>&1)
if ! grep -Eq '\((RUNPATH|RPATH)\)' <<<"$dynamic" && grep -Eq '\(FLAGS_1\).*\bNOW\b|\(FLAGS\).*\bBIND_NOW\b|\(BIND_NOW\)' <<<"$dynamic" &&
   grep -q GNU_RELRO <<<"$segments"; then
  ok "the binary: bind now, relro, no RUNPATH or RPATH"
else
  notok "the binary's hardening"; grep -E 'RUNPATH|RPATH|FLAGS|BIND_NOW' <<<"$dynamic" | diag
fi
dpkg-deb -e "$deb" "$tmp/control"
listed=$(cut -d' ' -f3- "$tmp/control/md5sums" | LC_ALL=C sort)
present=$(cd "$tmp/x" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
if (cd "$tmp/x" && md5sum --quiet -c "$tmp/control/md5sums") >"$tmp/md5.log" 2>&1 && [ "$listed" = "$present" ]; then
  ok "DEBIAN/md5sums: every file, each sum right ($(wc -l <"$tmp/control/md5sums") files)"
else
  notok "DEBIAN/md5sums"; { cat "$tmp/md5.log"; diff <(echo "$listed") <(echo "$present"); } | diag
fi

# --- lintian: no error, no warning; what is left (info, pedantic) is printed.
if command -v lintian >/dev/null; then
  lintian --pedantic --display-info --no-tag-display-limit "$deb" >"$tmp/lintian.log" 2>"$tmp/lintian.err"; rc=$?
  grep -v '^running with root privileges' "$tmp/lintian.err" >>"$tmp/lintian.log"
  if ! grep -Eq '^[EW]: ' "$tmp/lintian.log" && ! grep -Eq '^(internal error|[A-Za-z]+ error)' "$tmp/lintian.log" && [ "$rc" = 0 ]; then
    ok "lintian $(lintian --version | awk '{ print $2 }') --pedantic: no error, no warning ($(grep -Ec '^[IP]: ' "$tmp/lintian.log") info/pedantic tags left)"
    grep -E '^[IP]: ' "$tmp/lintian.log" | sed 's/^/#   /'
  else
    notok "lintian (exit $rc): errors or warnings"; diag <"$tmp/lintian.log"
  fi
else
  notok "lintian is not installed (Scripts/setup --lab installs it)"
fi

# --- The systemd unit, the service's options and the examples, in the package.
unit="$tmp/x/lib/systemd/system/cast-scan.service"
if [ -f "$unit" ] && grep -qx /etc/default/cast-scan "$tmp/control/conffiles" && [ -f "$tmp/x/etc/default/cast-scan" ] &&
   grep -qx 'CAST_SCAN_OPTIONS=""' "$tmp/x/etc/default/cast-scan" &&
   [ -z "$(find "$tmp/x/etc" -type f ! -path '*/etc/default/cast-scan')" ]; then
  ok "the unit in /lib/systemd/system, /etc/default/cast-scan a conffile (no options: serve's default, 127.0.0.1:9464)"
else
  notok "the unit and /etc/default/cast-scan in the package"; ls -R "$tmp/x/etc" "$tmp/x/lib" "$tmp/control" 2>&1 | diag
fi
missing_settings=""
for setting in 'Type=notify' 'EnvironmentFile=-/etc/default/cast-scan' 'ExecStart=/usr/bin/cast-scan serve $CAST_SCAN_OPTIONS' \
  'DynamicUser=yes' 'StateDirectory=cast-scan' 'Environment=XDG_STATE_HOME=%S' 'Restart=on-failure' 'UMask=0077' \
  'ProtectSystem=strict' 'ProtectHome=yes' 'PrivateTmp=yes' 'PrivateDevices=yes' 'NoNewPrivileges=yes' \
  'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK' 'CapabilityBoundingSet=' 'AmbientCapabilities=' \
  'ProtectKernelTunables=yes' 'ProtectKernelModules=yes' 'ProtectKernelLogs=yes' 'ProtectControlGroups=yes' \
  'ProtectClock=yes' 'ProtectHostname=yes' 'RestrictNamespaces=yes' 'LockPersonality=yes' 'MemoryDenyWriteExecute=yes' \
  'RestrictRealtime=yes' 'RestrictSUIDSGID=yes' 'SystemCallArchitectures=native' 'SystemCallFilter=@system-service'; do
  grep -qxF "$setting" "$unit" 2>/dev/null || missing_settings+="$setting; "
done
if [ -z "$missing_settings" ] && ! grep -Eq '^(PrivateNetwork|IPAddressDeny|User)=' "$unit"; then
  ok "the unit's settings: notify, a dynamic user with its state directory, the hardening"
else
  notok "the unit's settings: missing $missing_settings"
fi
if command -v systemd-analyze >/dev/null; then
  # Verify against the extracted root: its unit, with its ExecStart binary there, and the
  # system's /bin/kill (procps), which ExecReload runs and the package does not ship.
  mkdir -p "$tmp/x/bin" && cp /bin/kill "$tmp/x/bin/kill"
  if systemd-analyze verify --man=no --recursive-errors=no --root="$tmp/x" "$unit" >"$tmp/verify.log" 2>&1 && [ ! -s "$tmp/verify.log" ]; then
    ok "systemd-analyze verify --root=<the extracted package>: no complaint"
  else
    notok "systemd-analyze verify"; diag <"$tmp/verify.log"
  fi
  # The drop-in the unit's comments and docs/serving.md give for --web-config's credentials.
  mkdir -p "$tmp/x/etc/systemd/system/cast-scan.service.d"
  sed -n 's/^#   \(LoadCredential=.*\|ExecStart=.*\)$/\1/p' "$unit" >"$tmp/x/etc/systemd/system/cast-scan.service.d/web.conf"
  sed -i '1i [Service]' "$tmp/x/etc/systemd/system/cast-scan.service.d/web.conf"
  if [ "$(grep -c '^LoadCredential=' "$tmp/x/etc/systemd/system/cast-scan.service.d/web.conf")" = 3 ] &&
     systemd-analyze verify --man=no --recursive-errors=no --root="$tmp/x" "$unit" >"$tmp/verify-dropin.log" 2>&1 &&
     [ ! -s "$tmp/verify-dropin.log" ]; then
    ok "the unit with the LoadCredential drop-in its comments give (--web-config %d/web.yml): systemd-analyze verify, no complaint"
  else
    notok "the LoadCredential drop-in"; diag <"$tmp/x/etc/systemd/system/cast-scan.service.d/web.conf"; diag <"$tmp/verify-dropin.log"
  fi
  rm -rf "$tmp/x/etc/systemd"
  socket_unit="$tmp/x/lib/systemd/system/cast-scan.socket"
  if [ -f "$socket_unit" ] && grep -qx 'ListenStream=127.0.0.1:9464' "$socket_unit" &&
     systemd-analyze verify --man=no --recursive-errors=no --root="$tmp/x" "$socket_unit" >"$tmp/verify-socket.log" 2>&1 &&
     [ ! -s "$tmp/verify-socket.log" ]; then
    ok "cast-scan.socket (ListenStream=127.0.0.1:9464): systemd-analyze verify, no complaint"
  else
    notok "systemd-analyze verify cast-scan.socket"; diag <"$tmp/verify-socket.log"
  fi
  # That the check can fail here, without systemd as PID 1: an unknown key is reported.
  sed 's/^ProtectClock=yes$/ProtectClok=yes/' "$unit" >"$tmp/x/lib/systemd/system/cast-scan-broken.service"
  if ! systemd-analyze verify --man=no --recursive-errors=no --root="$tmp/x" "$tmp/x/lib/systemd/system/cast-scan-broken.service" >"$tmp/verify2.log" 2>&1 &&
     grep -q "Unknown key 'ProtectClok'" "$tmp/verify2.log"; then
    ok "systemd-analyze verify reports a broken copy of the unit (so the check runs without systemd as PID 1)"
  else
    notok "systemd-analyze verify accepts a unit with an unknown key"; diag <"$tmp/verify2.log"
  fi
  rm -f "$tmp/x/lib/systemd/system/cast-scan-broken.service"
  systemd-analyze security --offline=yes --root="$tmp/x" "$unit" >"$tmp/security.log" 2>&1
  exposure=$(sed -n 's/.*Overall exposure level for cast-scan.service: \([0-9.]*\).*/\1/p' "$tmp/security.log")
  if [ -n "$exposure" ] && awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }'; then
    ok "systemd-analyze security --offline=yes: exposure $exposure ($(sed -n 's/.*exposure level for cast-scan.service: [0-9.]* \([A-Z]*\).*/\1/p' "$tmp/security.log"); at most 2.0)"
    grep '✗' "$tmp/security.log" | sed -E 's/ {2,}/  /g; s/^/#   /'
  else
    notok "systemd-analyze security: exposure '${exposure}' (want at most 2.0)"; tail -5 "$tmp/security.log" | diag
  fi
  # The system calls a listing and a watch sending reports make (the replay, the spool, curl
  # refused on loopback, SIGTERM) are all in the unit's SystemCallFilter.
  filter=$(grep '^SystemCallFilter=' "$unit" | cut -d= -f2- | paste -sd' ')
  if command -v strace >/dev/null && [ -n "$filter" ]; then
    mkdir -p "$tmp/strace-state"
    replay="$tmp/x/usr/share/doc/cast-scan/examples/replay/living-room.json"
    clean_env strace -f -qq -o "$tmp/strace1.log" "$bin" --replay "$replay" --json >/dev/null 2>&1
    tracer_log=$tmp/strace2.log
    clean_env XDG_STATE_HOME="$tmp/strace-state" strace -f -qq -o "$tracer_log" "$bin" watch --replay "$replay" \
      --jsonl --report http://127.0.0.1:9/events --report-retry-max 0.2 >/dev/null 2>&1 &
    tracer=$!
    # Traced until the collector was tried twice: events spooled, a refused delivery gone through
    # whole, and its retry (at most 20 s).
    for _ in $(seq 200); do
      [ "$(grep -c 'connect(.*sin_port=htons(9)' "$tmp/strace2.log" 2>/dev/null)" -ge 2 ] && break
      sleep 0.1
    done
    stop_traced
    # serve, as the unit runs it: libmicrohttpd and libsystemd loaded, a scrape and the page
    # answered on loopback, then SIGTERM.
    tracer_log=$tmp/strace3.log
    clean_env NOTIFY_SOCKET="$tmp/no-notify-socket" strace -f -qq -o "$tracer_log" "$bin" serve --replay "$replay" \
      --listen 127.0.0.1:0 >/dev/null 2>"$tmp/serve.err" &
    tracer=$!
    for _ in $(seq 100); do grep -q 'listening on' "$tmp/serve.err" && break; sleep 0.1; done
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/serve.err" | head -1)
    served=$("$PY" -c 'import sys, urllib.request as u; print(u.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=10).status, u.urlopen("http://127.0.0.1:%s/" % sys.argv[1], timeout=10).status)' "${port:-0}" 2>&1)
    stop_traced
    [ "$served" = "200 200" ] || notok "serve under strace answered '$served' (stderr: $(head -c 300 "$tmp/serve.err"))"
    systemd-analyze syscall-filter --no-pager >"$tmp/groups.txt" 2>/dev/null
    summary=$("$PY" - "$unit" "$tmp/groups.txt" "$tmp/strace1.log" "$tmp/strace2.log" "$tmp/strace3.log" <<'PY'
import re, sys
groups, current = {}, None
for line in open(sys.argv[2]):
    text = line.strip()
    if not text or text.startswith("#"):
        continue
    if line.startswith("@"):
        current = text; groups[current] = set()
    elif current:
        groups[current].add(text)
def expand(name, seen=()):
    out = set()
    for item in groups.get(name, ()):
        out |= expand(item, seen + (name,)) if item.startswith("@") and item not in seen else {item}
    return out
def calls(token):
    return expand(token) if token.startswith("@") else {token}
# The unit's filter: the allow lists' calls, less those of the deny lists (~).
allowed, denied = set(), set()
for line in open(sys.argv[1]):
    if line.startswith("SystemCallFilter="):
        value = line.split("=", 1)[1].split()
        if value and value[0].startswith("~"):
            value[0] = value[0][1:]
            denied |= set().union(*map(calls, value))
        else:
            allowed |= set().union(*map(calls, value))
allowed -= denied
used = {m.group(1) for path in sys.argv[3:] for line in open(path)
        for m in [re.match(r"^(?:\d+ +)?([a-z_0-9]+)\(", line)] if m}
# used, allowed, then the calls outside the filter.
print(len(used), len(allowed), " ".join(sorted(used - allowed)))
PY
)
    read -r used_count allowed_count outside <<<"$summary"
    if [ -z "$outside" ] && [ "${used_count:-0}" -ge 20 ] && [ "${allowed_count:-0}" -ge 100 ] &&
       grep -q '^[0-9]* *connect(' "$tmp/strace2.log" && grep -q 'cast-scan/reports' "$tmp/strace2.log" &&
       grep -q 'accept4(' "$tmp/strace3.log" && grep -q 'libmicrohttpd.so.12' "$tmp/strace3.log"; then
      ok "the $used_count system calls of a listing, a watch with --report and serve answering a scrape (strace) are all in SystemCallFilter=$filter ($allowed_count calls)"
    else
      notok "system calls of a listing, a watch with --report and serve ($used_count traced) outside $filter ($allowed_count): ${outside:-none}"
    fi
  else
    notok "strace (Scripts/setup --lab installs it) or the unit's SystemCallFilter is missing"
  fi
else
  notok "systemd-analyze is not installed (systemd; Scripts/setup --lab installs it)"
fi
examples="$tmp/x/usr/share/doc/cast-scan/examples"
if clean_env "$bin" --replay "$examples/replay/living-room.json" --json >"$tmp/example.json" 2>&1 &&
   "$PY" -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["devices"]) == 4' "$tmp/example.json" &&
   (cd / && clean_env "$bin" simulate "$examples/scenarios/ios14-replay-living-room.json" >"$tmp/simulate.txt" 2>&1) &&
   grep -q 'devices: *2 visible' "$tmp/simulate.txt"; then
  ok "the packaged examples: the replay lists 4 devices, the scenario plays it"
else
  notok "the packaged replay and scenario"; cat "$tmp/example.json" "$tmp/simulate.txt" 2>/dev/null | head -20 | diag
fi
if command -v promtool >/dev/null && (cd "$examples/prometheus" && promtool check config prometheus.yml && promtool test rules cast-scan.rules.test.yml) >"$tmp/promtool.log" 2>&1; then
  ok "the packaged Prometheus examples: promtool check config and test rules pass"
else
  notok "the packaged Prometheus examples (promtool missing or failing)"; diag <"$tmp/promtool.log"
fi

# --- The documentation: the README, the changelog and every page of docs/, each as in the tree,
# and every relative link of the README and the pages resolves inside the installed folder.
docdir="$tmp/x/usr/share/doc/cast-scan"
if out=$("$PY" - "$here" "$docdir" <<'PY' 2>&1
import pathlib, re, sys
tree, installed = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
pages = [pathlib.Path("README.md"), pathlib.Path("CHANGELOG.md"), *sorted(p.relative_to(tree) for p in (tree / "docs").glob("*.md"))]
problems = []
for page in pages:
    if not (installed / page).is_file() or (installed / page).read_bytes() != (tree / page).read_bytes():
        problems.append(f"{page}: missing or not as in the tree")
        continue
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", (installed / page).read_text()):
        if "://" not in target and not target.startswith("mailto:") and not (installed / page).parent.joinpath(target).exists():
            problems.append(f"{page} -> {target}: broken link")
print("; ".join(problems) if problems else f"{len(pages) - 2} pages of docs/")
sys.exit(1 if problems else 0)
PY
); then
  ok "the docs in /usr/share/doc/cast-scan: README.md, CHANGELOG.md and $out, as in the tree, every relative link resolving"
else
  notok "the packaged docs: $out"
fi

# --- The man page.
man="$tmp/x/usr/share/man/man1/cast-scan.1.gz"
if zcat "$man" | groff -man -ww -z 2>"$tmp/groff.err" && [ ! -s "$tmp/groff.err" ] &&
   MANWIDTH=80 man -l "$man" >"$tmp/man.txt" 2>>"$tmp/groff.err" && [ ! -s "$tmp/groff.err" ] && [ -s "$tmp/man.txt" ]; then
  ok "man -l renders cast-scan(1), groff -ww without a warning"
else
  notok "the man page renders without warnings"; diag <"$tmp/groff.err"
fi
files=$(zcat "$man" | awk '/^\.SH / { on = ($0 == ".SH FILES") } on && prev == ".TP" { print } { prev = $0 }' |
  sed -E 's/^\\fI//; s/\\fR$//; s/\\-/-/g')
absent=""; for f in $files; do [ -e "$tmp/x$f" ] || absent+="$f "; done
if [ "$(wc -w <<<"$files")" -ge 3 ] && [ -z "$absent" ]; then
  ok "the man page's FILES are in the package: $(echo $files)"
else
  notok "the man page's FILES [$(echo $files)]: not in the package: $absent"
fi
# Each command's options: from its --help, and from its section (.SS) of the man page.
mismatch=""
commands=("" watch serve publish report "report send" "report status" auth "auth verify" plist "plist check" "plist snippet" advise simulate doctor)
for path in "${commands[@]}"; do
  # shellcheck disable=SC2086
  # Option rows only ("  -t, --timeout <SECONDS>  ..."), not names mentioned in prose.
  from_help=$(clean_env "$bin" $path --help | awk '/^OPTIONS:/ { on = 1; next } /^[A-Z]+:/ { on = 0 } on' |
    grep -E '^ +-' | sed -E 's/^ +//' |
    grep -oE '^(-[A-Za-z0-9], )?--?[A-Za-z0-9][A-Za-z0-9-]*' | tr ',' '\n' | tr -d ' ' | sort -u)
  from_man=$(zcat "$man" | "$PY" -c '
import re, sys
want = ("cast-scan " + sys.argv[1]).strip()
section, names = None, set()
for line in sys.stdin:
    if line.startswith(".SS "):
        section = line[4:].strip().strip("\"").replace("\\-", "-")
    elif line.startswith(".SH "):
        section = None
    elif section == want and line.startswith("\\fB\\-"):
        names |= set(re.findall(r"\\fB((?:\\-)+[A-Za-z0-9][A-Za-z0-9\\-]*)\\fR", line))
print("\n".join(sorted(n.replace("\\-", "-") for n in names)))' "$path" | sort -u)
  if [ -z "$from_help" ] || [ "$from_help" != "$from_man" ]; then
    mismatch+="cast-scan $path: help [$(echo $from_help)] man [$(echo $from_man)]; "
  fi
done
if [ -z "$mismatch" ]; then ok "every command's options are the same in --help and in the man page (${#commands[@]} commands)"
else notok "--help and the man page differ: $mismatch"; fi

# --- Completions.
completion="$tmp/x/usr/share/bash-completion/completions/cast-scan"
got=$(bash --norc --noprofile -c '
  source "$1"
  complete -p cast-scan >/dev/null || exit 3
  COMP_WORDS=(cast-scan ""); COMP_CWORD=1; _cast_scan; echo "root: ${COMPREPLY[*]}"
  COMP_WORDS=(cast-scan --backend ""); COMP_CWORD=2; _cast_scan; echo "backend: ${COMPREPLY[*]}"
  COMP_WORDS=(cast-scan watch --backend ""); COMP_CWORD=3; _cast_scan; echo "watch backend: ${COMPREPLY[*]}"
  COMP_WORDS=(cast-scan publish --backend ""); COMP_CWORD=3; _cast_scan; echo "publish backend: ${COMPREPLY[*]}"
  COMP_WORDS=(cast-scan --permission ""); COMP_CWORD=2; _cast_scan; echo "permission: ${COMPREPLY[*]}"
  COMP_WORDS=(cast-scan report ""); COMP_CWORD=2; _cast_scan; echo "report: ${COMPREPLY[*]}"' _ "$completion" 2>&1)
expect_words() { local line; line=$(grep "^$1: " <<<"$got"); for w in $2; do [[ " ${line#*: } " == *" $w "* ]] || return 1; done; }
if expect_words root "watch serve publish report plist advise simulate doctor --json --backend --help" &&
   expect_words backend "auto avahi mdns dnssd hosts" && expect_words "watch backend" "auto avahi mdns dnssd hosts" &&
   [ "$(grep '^publish backend: ' <<<"$got")" = "publish backend: avahi dnssd" ] &&
   expect_words permission "granted denied undetermined" && expect_words report "send status"; then
  ok "bash completion: every subcommand, --backend's values (each command's own: publish's are avahi and dnssd) and --permission's, report's subcommands"
else
  notok "bash completion"; diag <<<"$got"
fi
if command -v zsh >/dev/null && zsh -n "$tmp/x/usr/share/zsh/vendor-completions/_cast-scan"; then
  ok "zsh completion parses (zsh -n)"
else
  notok "zsh completion: zsh missing or the script does not parse"
fi

# --- Install and remove leave the system as it was.
snapshot() {
  find /usr/bin /usr/share/man/man1 /usr/share/bash-completion/completions /usr/share/zsh/vendor-completions /usr/share/doc \
    /etc/default /lib/systemd/system /usr/lib/systemd/system /etc/systemd/system -maxdepth 2 2>/dev/null | sort
}
snapshot >"$tmp/before"
if dpkg -i "$deb" >"$tmp/dpkg.log" 2>&1 && [ "$(clean_env cast-scan --version)" = "$version" ] &&
   files=$(dpkg -L cast-scan) && grep -qx /usr/bin/cast-scan <<<"$files" && grep -qx /usr/share/man/man1/cast-scan.1.gz <<<"$files"; then
  ok "dpkg -i: cast-scan on PATH ($(dpkg -L cast-scan | grep -c /) paths listed)"
else
  notok "dpkg -i"; diag <"$tmp/dpkg.log"
fi
enabled=$(systemctl --root=/ is-enabled cast-scan.service 2>&1)
if [ "$enabled" = disabled ] && [ -z "$(find /etc/systemd/system -name 'cast-scan.service*' 2>/dev/null)" ] &&
   dpkg-query -W -f='${Conffiles}' cast-scan | grep -q '^ /etc/default/cast-scan [0-9a-f]\{32\}$'; then
  ok "installed: cast-scan.service disabled, /etc/default/cast-scan a registered conffile"
else
  notok "installed unit state '$enabled' or conffile"; dpkg-query -W -f='${Conffiles}\n' cast-scan | diag
fi
if systemd-analyze verify --man=no --recursive-errors=no cast-scan.service >"$tmp/verify3.log" 2>&1 && [ ! -s "$tmp/verify3.log" ]; then
  ok "systemd-analyze verify cast-scan.service, installed: no complaint"
else
  notok "systemd-analyze verify of the installed unit"; diag <"$tmp/verify3.log"
fi
if dpkg -r cast-scan >>"$tmp/dpkg.log" 2>&1 && dpkg -P cast-scan >>"$tmp/dpkg.log" 2>&1 && ! dpkg -s cast-scan >/dev/null 2>&1 &&
   ! ls /usr/bin/cast-scan >/dev/null 2>&1 && snapshot | cmp -s - "$tmp/before"; then
  ok "dpkg -r and -P: no package, no file left, the same files as before"
else
  notok "removal left something"; { cat "$tmp/dpkg.log"; snapshot | diff "$tmp/before" -; } | diag
fi

# --- make install PREFIX=...
if DESTDIR="$tmp/destdir" "$here/Scripts/install-release" /usr/local >"$tmp/install.log" 2>&1 &&
   [ "$(clean_env "$tmp/destdir/usr/local/bin/cast-scan" --version)" = "$version" ] &&
   [ -f "$tmp/destdir/usr/local/share/man/man1/cast-scan.1" ] && [ -f "$tmp/destdir/usr/local/share/bash-completion/completions/cast-scan" ]; then
  ok "make install (DESTDIR + PREFIX): the binary, man page and completions"
else
  notok "make install"; diag <"$tmp/install.log"
fi
mkdir -p "$tmp/linked/bin"; ln -s /dev/null "$tmp/linked/bin/cast-scan"
if ! "$here/Scripts/install-release" "$tmp/linked" >"$tmp/install2.log" 2>&1 && [ -L "$tmp/linked/bin/cast-scan" ] && [ "$(readlink "$tmp/linked/bin/cast-scan")" = /dev/null ]; then
  ok "make install refuses a target that is a link and leaves it alone"
else
  notok "make install over a link"; diag <"$tmp/install2.log"
fi

# --- The example package.
# A build of its own each time: an incremental build of a package with a path dependency can
# miss files added to the dependency (SwiftPM keeps the dependency's old file list). make test
# builds it before the suites start (Tests/Scripts/build-example: afresh whenever the list of
# files changed) and gives its binary in LIST_DEVICES_BIN.
example_built() {
  if [ -n "${LIST_DEVICES_BIN:-}" ]; then example=$LIST_DEVICES_BIN; [ -x "$example" ]; return; fi
  example=$tmp/example-build/debug/list-devices
  swift build --package-path "$here/Examples/list-devices" --scratch-path "$tmp/example-build" >"$tmp/example.log" 2>&1
}
if example_built && out=$("$example" "$here/Fixtures/replay/living-room.json" 2>&1) &&
   grep -q "^4 devices:" <<<"$out" && grep -q "Living Room TV" <<<"$out" && grep -q "^+ Kitchen speaker" <<<"$out"; then
  ok "the example package builds against this one and lists the recorded network"
else
  notok "the example package"; { cat "$tmp/example.log" 2>/dev/null; echo "${out:-}"; } | diag
fi
done_testing
