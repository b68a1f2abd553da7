#!/usr/bin/env bash
# package-test.sh: what a user installing cast-scan gets.
#  - The .deb (Scripts/build-deb): extracted with dpkg-deb -x, its binary runs with a clean
#    environment (no /opt/swift on PATH or LD_LIBRARY_PATH): --version exits 0 and names the
#    commit; ldd finds every library and no Swift or Foundation one; Depends and Recommends.
#  - Install and remove: dpkg -i, then dpkg -r and -P, leave the system as it was.
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
PY=/usr/bin/python3
passed=0 failed=0
tmp=$(mktemp -d /tmp/package-test.XXXXXX)
ok() { echo "ok - $*"; passed=$((passed + 1)); }
notok() { echo "not ok - $*"; failed=$((failed + 1)); }
diag() { sed 's/^/#   /' >&2; }
finish() {
  dpkg -s cast-scan >/dev/null 2>&1 && dpkg -P cast-scan >/dev/null 2>&1
  rm -rf "$tmp"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
trap 'finish; exit $?' EXIT
clean_env() { env -i PATH=/usr/bin:/bin HOME="$tmp/home" "$@"; }

if dpkg -s cast-scan >/dev/null 2>&1; then notok "cast-scan is already installed (dpkg -r it first)"; exit 1; fi
deb=$("$here/Scripts/build-deb" "$tmp/dist" 2>"$tmp/build.log" | tail -1)
if [ ! -f "$deb" ]; then notok "build-deb makes a package"; diag <"$tmp/build.log"; exit 1; fi
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

# --- The man page.
man="$tmp/x/usr/share/man/man1/cast-scan.1.gz"
if zcat "$man" | groff -man -ww -z 2>"$tmp/groff.err" && [ ! -s "$tmp/groff.err" ] &&
   MANWIDTH=80 man -l "$man" >"$tmp/man.txt" 2>>"$tmp/groff.err" && [ ! -s "$tmp/groff.err" ] && [ -s "$tmp/man.txt" ]; then
  ok "man -l renders cast-scan(1), groff -ww without a warning"
else
  notok "the man page renders without warnings"; diag <"$tmp/groff.err"
fi
# Each command's options: from its --help, and from its section (.SS) of the man page.
mismatch=""
for path in "" watch report "report send" "report status" plist "plist check" "plist snippet" advise simulate doctor; do
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
if [ -z "$mismatch" ]; then ok "every command's options are the same in --help and in the man page (11 commands)"
else notok "--help and the man page differ: $mismatch"; fi

# --- Completions.
completion="$tmp/x/usr/share/bash-completion/completions/cast-scan"
got=$(bash --norc --noprofile -c '
  source "$1"
  complete -p cast-scan >/dev/null || exit 3
  COMP_WORDS=(cast-scan ""); COMP_CWORD=1; _cast_scan; echo "root: ${COMPREPLY[*]}"
  COMP_WORDS=(cast-scan --backend ""); COMP_CWORD=2; _cast_scan; echo "backend: ${COMPREPLY[*]}"
  COMP_WORDS=(cast-scan watch --backend ""); COMP_CWORD=3; _cast_scan; echo "watch backend: ${COMPREPLY[*]}"
  COMP_WORDS=(cast-scan --permission ""); COMP_CWORD=2; _cast_scan; echo "permission: ${COMPREPLY[*]}"
  COMP_WORDS=(cast-scan report ""); COMP_CWORD=2; _cast_scan; echo "report: ${COMPREPLY[*]}"' _ "$completion" 2>&1)
expect_words() { local line; line=$(grep "^$1: " <<<"$got"); for w in $2; do [[ " ${line#*: } " == *" $w "* ]] || return 1; done; }
if expect_words root "watch report plist advise simulate doctor --json --backend --help" &&
   expect_words backend "auto avahi mdns dnssd hosts" && expect_words "watch backend" "auto avahi mdns dnssd hosts" &&
   expect_words permission "granted denied undetermined" && expect_words report "send status"; then
  ok "bash completion: every subcommand, --backend and --permission values, report's subcommands"
else
  notok "bash completion"; diag <<<"$got"
fi
if command -v zsh >/dev/null && zsh -n "$tmp/x/usr/share/zsh/vendor-completions/_cast-scan"; then
  ok "zsh completion parses (zsh -n)"
else
  notok "zsh completion: zsh missing or the script does not parse"
fi

# --- Install and remove leave the system as it was.
snapshot() { find /usr/bin /usr/share/man/man1 /usr/share/bash-completion/completions /usr/share/zsh/vendor-completions /usr/share/doc -maxdepth 2 2>/dev/null | sort; }
snapshot >"$tmp/before"
if dpkg -i "$deb" >"$tmp/dpkg.log" 2>&1 && [ "$(clean_env cast-scan --version)" = "$version" ] &&
   dpkg -L cast-scan | grep -qx /usr/bin/cast-scan && dpkg -L cast-scan | grep -qx /usr/share/man/man1/cast-scan.1.gz; then
  ok "dpkg -i: cast-scan on PATH ($(dpkg -L cast-scan | grep -c /) paths listed)"
else
  notok "dpkg -i"; diag <"$tmp/dpkg.log"
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
# miss files added to the dependency (SwiftPM keeps the dependency's old file list).
if swift build --package-path "$here/Examples/list-devices" --scratch-path "$tmp/example-build" >"$tmp/example.log" 2>&1 &&
   out=$("$tmp/example-build/debug/list-devices" "$here/Fixtures/replay/living-room.json" 2>&1) &&
   grep -q "^4 devices:" <<<"$out" && grep -q "Living Room TV" <<<"$out" && grep -q "^+ Kitchen speaker" <<<"$out"; then
  ok "the example package builds against this one and lists the recorded network"
else
  notok "the example package"; { cat "$tmp/example.log"; echo "${out:-}"; } | diag
fi
