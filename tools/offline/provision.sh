#!/bin/bash
# provision.sh - make an offline Bazel 7 available to tools/bazel on a Debian/Ubuntu
# host that reaches only a Debian archive and the Go module proxy.
#
# What it builds (all outside the repository, under $BASE):
#   $BASE/root      a Debian sid root (mmdebstrap) with Debian's bazel-bootstrap 7.x;
#                   sid because its Bazel needs a newer libc/libstdc++ than the host's.
#   $BASE/deps      rules_go and Gazelle source trees from the Go module proxy, plus a
#                   stand-in for @package_metadata; mounted read-only into the root.
#   $BASE/cache     Bazel's output user root and the GOPATH used inside the root.
#   $BASE/stamp     what was provisioned; a matching stamp makes a re-run a no-op.
# and, in the workspace, the git-ignored .bazelrc.offline with --override_repository
# lines (WORKSPACE mode) and --override_module lines (Bzlmod), so the checked-in
# WORKSPACE and MODULE.bazel files stay the ones a user with network copies.
#
# Usage: provision.sh WORKSPACE_DIR        (called by tools/bazel; idempotent)
# Env:   RULES_CAPTURE_BASE (default /var/cache/rules_capture), DEBIAN_MIRROR
# Exit:  0 ready; 3 cannot provision here (one line on stderr says why and what to do).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WS=${1:?usage: provision.sh WORKSPACE_DIR}
BASE=${RULES_CAPTURE_BASE:-/var/cache/rules_capture}
ROOT=$BASE/root
DEPS=$BASE/deps
CACHE=$BASE/cache
LOG=$BASE/provision.log
# Versions known to work together with Debian's Bazel 7.7.1 (see docs/development.md).
RULES_GO_VERSION=v0.60.0
GAZELLE_VERSION=v0.47.0
SUITE=sid
# file, zip: Bazel's test-setup.sh runs them on undeclared test outputs.
CHROOT_PKGS="bazel-bootstrap bazel-rules-shell ca-certificates file git zip"

cannot() { echo "tools/bazel: cannot provision Bazel: $*" >&2; exit 3; }
log() { printf '[%s] %s\n' "$(date +%T)" "$*" >>"$LOG"; }
say() { echo "tools/bazel: $*" >&2; log "$*"; }

# ---- preconditions: each failure is one line naming the fix -------------------------
[ "$(uname -s)" = Linux ] || cannot "not Linux; install Bazel >= 7 (e.g. bazelisk) and put it on PATH"
[ -r /etc/debian_version ] && command -v apt-get >/dev/null ||
  cannot "not a Debian/Ubuntu host; install Bazel >= 7 (e.g. bazelisk) and put it on PATH"
[ "$(id -u)" = 0 ] ||
  cannot "needs root to build a chroot (no Bazel >= 7 on PATH); re-run as root, or install Bazel >= 7 (e.g. bazelisk) on PATH"
GO=$(command -v go || true)
[ -n "$GO" ] || cannot "no 'go' on PATH; install Go 1.26 (https://go.dev/dl) and put it on PATH"
GOROOT_HOST=$("$GO" env GOROOT)

mkdir -p "$BASE" "$DEPS" "$CACHE/bazel" "$CACHE/gopath"
exec 9>"$BASE/lock"
flock 9   # one provisioner at a time (parallel tools/bazel calls wait here)

# Everything that decides the result goes into the stamp; a change re-provisions.
stamp_want="rules_go=$RULES_GO_VERSION gazelle=$GAZELLE_VERSION suite=$SUITE pkgs=$CHROOT_PKGS script=$(sha256sum "$0" "$HERE"/package_metadata/* | sha256sum | cut -c1-16)"

umount_root() { # everything mounted below $ROOT, deepest first
  { findmnt -rn -o TARGET | grep -E "^$ROOT(/|\$)" || true; } | sort -r |
    while read -r m; do umount -l "$m" 2>/dev/null || true; done
}

if [ "$(cat "$BASE/stamp" 2>/dev/null)" != "$stamp_want" ] || [ ! -x "$ROOT/usr/bin/bazel" ]; then
  say "provisioning Bazel 7 offline under $BASE (first run: 2-3 minutes; log: $LOG)"

  # ---- 1. host tools --------------------------------------------------------------
  if ! command -v mmdebstrap >/dev/null; then
    log "apt-get install mmdebstrap"
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap ||
      { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap; }
    } >>"$LOG" 2>&1 || cannot "apt-get install mmdebstrap failed (Debian archive unreachable?); see $LOG"
  fi

  # ---- 2. the sid root ------------------------------------------------------------
  if [ ! -e "$ROOT/.bootstrap-done" ]; then
    mirror=${DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)}
    mirror=${mirror:-http://deb.debian.org/debian}
    log "mmdebstrap $SUITE $ROOT $mirror"
    umount_root
    if findmnt -rn -o TARGET | grep -q "^$ROOT/"; then
      cannot "mounts remain below $ROOT; run 'tools/bazel shutdown' and 'tools/offline/provision.sh --umount' first"
    fi
    rm -rf --one-file-system "$ROOT"
    # The archive here is a frozen snapshot whose sid Release is past Valid-Until;
    # signatures are still checked (bookworm's keyring holds sid's signing keys).
    mmdebstrap --variant=apt \
      --aptopt='Acquire::Check-Valid-Until "false"' \
      --aptopt='APT::Install-Recommends "false"' \
      --include=ca-certificates "$SUITE" "$ROOT" "$mirror" >>"$LOG" 2>&1 ||
      cannot "mmdebstrap $SUITE from $mirror failed (archive unreachable? set DEBIAN_MIRROR); see $LOG"
    touch "$ROOT/.bootstrap-done"
  fi

  "$HERE/mounts.sh" "$ROOT" "$CACHE" "$DEPS" "$GOROOT_HOST"
  cp -f /etc/hosts /etc/resolv.conf "$ROOT/etc/"

  # ---- 3. Bazel inside the root ---------------------------------------------------
  missing=""
  for p in $CHROOT_PKGS; do
    chroot "$ROOT" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    log "apt-get install$missing (in $ROOT)"
    in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }
    { in_root apt-get update -q && in_root apt-get install -y -q $missing && in_root apt-get clean; } >>"$LOG" 2>&1 ||
      cannot "apt-get install$missing inside $ROOT failed (archive unreachable?); see $LOG"
  fi

  # ---- 4. the host's extra CA certificates (TLS to the Go proxy may be intercepted) -
  cadir=$ROOT/usr/local/share/ca-certificates/host
  mkdir -p "$cadir"
  before=$(find "$cadir" -name '*.crt' | wc -l)
  awk -v dir="$cadir" -v n="$before" '
    FNR == NR { if (/BEGIN CERT/) c = ""; c = c $0 "\n"; if (/END CERT/) have[c] = 1; next }
    /BEGIN CERT/ { c = "" }
    { c = c $0 "\n" }
    /END CERT/ && !(c in have) { f = sprintf("%s/host-%03d.crt", dir, ++n); printf "%s", c > f; close(f) }
  ' "$ROOT/etc/ssl/certs/ca-certificates.crt" /etc/ssl/certs/ca-certificates.crt
  if [ "$(find "$cadir" -name '*.crt' | wc -l)" != "$before" ]; then
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin update-ca-certificates >>"$LOG" 2>&1
  fi

  # ---- 5. rules_go and Gazelle through the Go module proxy --------------------------
  export GOMODCACHE=$DEPS/gomodcache GOCACHE=$CACHE/gocache GOFLAGS=-mod=mod GOWORK=off
  fetch_module() { # MODULE VERSION DIR
    local dest=$DEPS/$3 dir
    [ -f "$dest/.fetched-$2" ] && return 0
    dir=$("$GO" mod download -json "$1@$2" 2>>"$LOG" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')
    [ -d "$dir" ] || cannot "go mod download $1@$2 failed (Go module proxy unreachable? check GOPROXY); see $LOG"
    rm -rf "$dest"
    cp -r "$dir" "$dest"
    chmod -R u+w "$dest"
    # Module zips keep no file modes: scripts (*.sh, #! files) need +x again.
    find "$dest" -type f \( -name '*.sh' -o -name '*.bash' -o -name '*.py' \) -exec chmod +x {} +
    { find "$dest" -type f -size -1M -exec grep -lIm1 '^#!' {} + 2>/dev/null || true; } | xargs -r chmod +x
    touch "$dest/.fetched-$2"
    log "$1@$2 -> $dest"
  }
  fetch_module github.com/bazelbuild/rules_go "$RULES_GO_VERSION" rules_go
  fetch_module github.com/bazelbuild/bazel-gazelle "$GAZELLE_VERSION" bazel_gazelle
  # Gazelle builds its repository tools from its vendor/ directory (GO111MODULE=off);
  # module zips drop vendor/, so recreate it (-e: Gazelle's tests import fake modules).
  if [ ! -d "$DEPS/bazel_gazelle/vendor/github.com" ]; then
    (cd "$DEPS/bazel_gazelle" && "$GO" mod vendor -e) >>"$LOG" 2>&1 ||
      cannot "go mod vendor in $DEPS/bazel_gazelle failed; see $LOG"
  fi
  # Gazelle >= 0.45 loads @package_metadata (bazel-contrib/supply-chain), which is
  # neither a Debian package nor a Go module: use our minimal stand-in.
  rm -rf "$DEPS/package_metadata"
  mkdir -p "$DEPS/package_metadata/rules" "$DEPS/package_metadata/providers"
  cp "$HERE/package_metadata/package_metadata.bzl" "$DEPS/package_metadata/rules/"
  cp "$HERE/package_metadata/package_metadata_info.bzl" "$DEPS/package_metadata/providers/"
  echo 'workspace(name = "package_metadata")' >"$DEPS/package_metadata/WORKSPACE"
  : >"$DEPS/package_metadata/BUILD.bazel"
  echo 'exports_files(glob(["*.bzl"]))' >"$DEPS/package_metadata/rules/BUILD.bazel"
  echo 'exports_files(glob(["*.bzl"]))' >"$DEPS/package_metadata/providers/BUILD.bazel"
  echo 'module(name = "package_metadata")' >"$DEPS/package_metadata/MODULE.bazel"

  # ---- 6. Bzlmod: modules that resolution names but no build here loads -------------
  # Every module of the graph gets an --override_module (below), so Bzlmod never asks a
  # registry. These four come from bazel_tools' and the rule sets' MODULE.bazel files:
  # protobuf (proto rules; nothing here compiles a .proto), zlib (protobuf's C++ build),
  # apple_support (Apple platforms), buildozer (`bazel mod tidy` only). A stand-in is a
  # module with that name and no content, so a build that did load it fails loudly,
  # naming the module. docs/development.md lists them.
  rm -rf "$DEPS/standins"
  for m in protobuf zlib apple_support buildozer; do
    mkdir -p "$DEPS/standins/$m"
    printf 'module(name = "%s")\n' "$m" >"$DEPS/standins/$m/MODULE.bazel"
    : >"$DEPS/standins/$m/BUILD.bazel"
  done
  # bazel_tools' own MODULE.bazel loads buildozer's extension file for `bazel mod tidy`:
  # the stand-in defines it, making an empty @buildozer_binary.
  cat >"$DEPS/standins/buildozer/buildozer_binary.bzl" <<'BZL'
"""Offline stand-in: bazel_tools names this extension for `bazel mod tidy` only."""

def _empty_repo_impl(rctx):
    rctx.file("BUILD.bazel", "")

_empty_repo = repository_rule(implementation = _empty_repo_impl)

def _buildozer_binary_impl(_mctx):
    _empty_repo(name = "buildozer_binary")

buildozer_binary = module_extension(implementation = _buildozer_binary_impl)
BZL

  echo "$stamp_want" >"$BASE/stamp"
  say "provisioned: $(chroot "$ROOT" /usr/bin/bazel --version 2>/dev/null | head -1 || echo bazel) in $ROOT"
fi

# ---- 7. the workspace's offline bazelrc fragment (rewritten only when it changes) -----
# Debian ships the rule sets Bazel itself needs under /usr/share/bazel (paths inside the
# root); Bazel 7's implicit WORKSPACE suffix would otherwise fetch them from GitHub.
fragment=$(cat <<FRAG
# Generated by tools/bazel (tools/offline/provision.sh); git-ignored, machine-specific.
# Points the http_archive repositories of WORKSPACE at offline copies: Debian's packaged
# rule sets inside the Bazel root and rules_go/Gazelle fetched through the Go module proxy.
common --override_repository=io_bazel_rules_go=$DEPS/rules_go
common --override_repository=bazel_gazelle=$DEPS/bazel_gazelle
common --override_repository=package_metadata=$DEPS/package_metadata
common --override_repository=bazel_skylib=/usr/share/bazel/tools/skylib
common --override_repository=platforms=/usr/share/bazel/tools/platforms
common --override_repository=rules_cc=/usr/share/bazel/rules/cc
common --override_repository=rules_java=/usr/share/bazel/rules/java
common --override_repository=rules_license=/usr/share/bazel/rules/license
common --override_repository=rules_proto=/usr/share/bazel/rules/proto
common --override_repository=rules_python=/usr/share/bazel/rules/python
common --override_repository=rules_shell=/usr/share/bazel/rules/shell
# Bzlmod (e2e/bzlmod, workspaces outside this one that import this file): every module
# of the graph from a local path, so resolution needs no registry. Debian's
# /etc/bazel/bazelrc already overrides platforms, bazel_features, bazel_skylib, rules_cc,
# rules_java, rules_license, rules_proto and rules_python. Inert in WORKSPACE mode, as the
# lines above are under --enable_bzlmod --noenable_workspace (no repository has those
# names there). The lockfile would record these machine-specific paths: off.
common --override_module=rules_go=$DEPS/rules_go
common --override_module=gazelle=$DEPS/bazel_gazelle
common --override_module=package_metadata=$DEPS/package_metadata
common --override_module=rules_shell=/usr/share/bazel/rules/shell
common --override_module=protobuf=$DEPS/standins/protobuf
common --override_module=zlib=$DEPS/standins/zlib
common --override_module=apple_support=$DEPS/standins/apple_support
common --override_module=buildozer=$DEPS/standins/buildozer
common --lockfile_mode=off
# Caches shared by every workspace on this machine (this one, e2e/bzlmod, e2e/workspace,
# a fresh clone), each of which has an output base of its own. go_repository downloads
# modules into the GOPATH and builds its tools with the GOCACHE that tools/bazel sets
# (both under $CACHE) instead of per output base; the disk cache keeps action outputs
# (with --experimental_output_paths=strip in the workspaces' .bazelrc, the standard
# library and every package the observed set does not reach are one cache entry for
# the normal build and all capture and replay configurations), kept under 10 GB.
common --repo_env=GO_REPOSITORY_USE_HOST_CACHE=1
build --disk_cache=$CACHE/disk
build --experimental_disk_cache_gc_max_size=10G
FRAG
)
if [ "$(cat "$WS/.bazelrc.offline" 2>/dev/null)" != "$fragment" ]; then
  printf '%s\n' "$fragment" >"$WS/.bazelrc.offline"
fi
