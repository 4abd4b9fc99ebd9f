#!/bin/bash
# mounts_test.sh - tests of mounts.sh's workspace bind mount with a throw-away root
# (needs root for mount(2); skipped otherwise). Run by tools/test.sh.
set -euo pipefail
OFFLINE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ "$(id -u)" != 0 ]; then echo "SKIP: mounts need root"; exit 0; fi
tmp=$(mktemp -d)
root=$tmp/root
cleanup() {
  { findmnt -rn -o TARGET | grep -E "^$root(/|\$)" || true; } | sort -r |
    while read -r m; do umount -l "$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT
mkdir -p "$root/proc" "$root/dev" "$root/sys" "$tmp/cache" "$tmp/deps" "$tmp/goroot"
fails=0
check() { # NAME WANT_FILE - the workspace, seen inside the root, holds WANT_FILE
  if [ -e "$root$ws/$2" ] && [ "$(stat -c %d:%i "$ws")" = "$(stat -c %d:%i "$root$ws")" ]; then
    echo "PASS: $1"
  else
    echo "FAIL: $1: $root$ws does not show the workspace at $ws"
    findmnt -rn -o TARGET,SOURCE | grep -F "$root$ws" || true
    fails=$((fails + 1))
  fi
}

ws=$tmp/clone
mkdir -p "$ws" && touch "$ws/first"
"$OFFLINE/mounts.sh" "$root" "$tmp/cache" "$tmp/deps" "$tmp/goroot" "$ws"
check "the workspace is mounted at the same path inside the root" first
"$OFFLINE/mounts.sh" "$root" "$tmp/cache" "$tmp/deps" "$tmp/goroot" "$ws"
check "a second call keeps the mount" first
[ "$(findmnt -rn -o TARGET | grep -cxF "$root$ws")" = 1 ] && echo "PASS: ...without stacking a second one" ||
  { echo "FAIL: the workspace is mounted more than once"; fails=$((fails + 1)); }

# A new clone where the old one was: the old mount shows a deleted directory, in which
# Bazel's getcwd() fails ("getcwd() failed: (error: 2)"): mounts.sh must mount the new one.
rm -rf "$ws" && mkdir -p "$ws" && touch "$ws/second"
"$OFFLINE/mounts.sh" "$root" "$tmp/cache" "$tmp/deps" "$tmp/goroot" "$ws"
check "a workspace deleted and re-created at the same path is mounted again" second
exit $((fails > 0))
