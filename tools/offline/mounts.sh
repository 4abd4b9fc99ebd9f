#!/bin/bash
# mounts.sh ROOT CACHE DEPS GOROOT [WORKSPACE] - idempotently set up the bind mounts the
# Bazel root needs. They stay up while the Bazel server runs inside the root: never
# delete the root without 'tools/bazel shutdown' and 'tools/offline/umount.sh' first.
set -euo pipefail
ROOT=$1 CACHE=$2 DEPS=$3 GOROOT_HOST=$4 WS=${5:-}
bind() { # SRC DST [ro] - the same path inside and outside, so absolute paths agree
  mkdir -p "$2"
  # A mount left from a directory that was deleted and re-created at the same path (a
  # second clone where an earlier one was) still shows the old, deleted directory: inside
  # the root `cd` works but getcwd() fails. Same path, other inode: mount it again.
  local n=0
  while mountpoint -q "$2" && [ "$(stat -c %d:%i "$1")" != "$(stat -c %d:%i "$2")" ] && [ $n -lt 8 ]; do
    umount -l "$2"; n=$((n + 1))
  done
  if ! mountpoint -q "$2"; then
    mount --bind "$1" "$2"
    if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$2"; fi
  fi
}
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
mountpoint -q "$ROOT/dev" || { mount --rbind /dev "$ROOT/dev"; mount --make-rslave "$ROOT/dev"; }
mountpoint -q "$ROOT/sys" || { mount --rbind /sys "$ROOT/sys"; mount --make-rslave "$ROOT/sys"; }
bind "$CACHE" "$ROOT$CACHE"
bind "$DEPS" "$ROOT$DEPS" ro
bind "$GOROOT_HOST" "$ROOT/usr/local/go" ro   # the host's Go SDK, found on PATH inside
if [ -n "$WS" ]; then bind "$WS" "$ROOT$WS"; fi
