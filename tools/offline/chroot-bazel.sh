#!/bin/bash
# chroot-bazel.sh WORKSPACE_DIR ARGS... - run the Bazel of the offline root (see
# provision.sh) on WORKSPACE_DIR, from the caller's directory.
# The workspace is bind-mounted at the same absolute path inside the root, so the
# bazel-* symlinks, `bazel run` (BUILD_WORKSPACE_DIRECTORY) and absolute paths in
# .bazelrc.offline mean the same thing on both sides.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WS=$1; shift
BASE=${RULES_CAPTURE_BASE:-/var/cache/rules_capture}
ROOT=$BASE/root CACHE=$BASE/cache DEPS=$BASE/deps
"$HERE/mounts.sh" "$ROOT" "$CACHE" "$DEPS" "$(go env GOROOT)" "$WS"
cp -f /etc/hosts /etc/resolv.conf "$ROOT/etc/" 2>/dev/null || true

case "$PWD/" in "$WS"/*) cwd=$PWD ;; *) cwd=$WS ;; esac
env=(HOME=/root USER=root LANG=C.UTF-8
  PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  # `gazelle update-repos` downloads the module graph: keep that cache outside the root.
  GOPATH="$CACHE/gopath" GOCACHE="$CACHE/gocache-chroot")
for v in TERM GOPROXY GONOSUMDB GOPRIVATE GOSUMDB GOINSECURE \
  HTTP_PROXY HTTPS_PROXY NO_PROXY http_proxy https_proxy no_proxy; do
  if [ -n "${!v:-}" ]; then env+=("$v=${!v}"); fi
done
exec chroot "$ROOT" /usr/bin/env -i "${env[@]}" \
  /bin/sh -c 'cd "$1" && shift && exec /usr/bin/bazel "$@"' sh "$cwd" \
  --output_user_root="$CACHE/bazel" "$@"
