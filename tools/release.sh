#!/bin/bash
# tools/release.sh VERSION [REF] - make rules_capture's source archive for a release
# and print what a user pastes to depend on it.
#
# The archive is `git archive` of REF (default: the tag vVERSION if it exists, else
# HEAD) under the prefix rules_capture-VERSION/, written to $OUT_DIR (default: the
# current directory) as rules_capture-VERSION.tar.gz. Printed: its sha256, its SRI
# integrity (what MODULE.bazel's archive_override and the Bazel Central Registry's
# source.json take), and the MODULE.bazel and WORKSPACE snippets. The URL in the
# snippets is $RELEASE_URL, default the GitHub release asset of tag vVERSION (upload
# the archive there, or set RELEASE_URL to where it will be served; .bcr/ uses the same
# name). Only committed files go in: uncommitted changes are not part of a release.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
VERSION=${1:-}
if ! [[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
  echo "usage: tools/release.sh VERSION [REF]   (VERSION like 0.1.0, without the v)" >&2
  exit 2
fi
if [ -n "${2:-}" ]; then ref=$2
elif git rev-parse -q --verify "refs/tags/v$VERSION" >/dev/null; then ref=v$VERSION
else ref=HEAD
fi
commit=$(git rev-parse --verify "$ref^{commit}") || { echo "tools/release.sh: no commit $ref" >&2; exit 2; }
name=rules_capture-$VERSION
out_dir=${OUT_DIR:-$PWD}
mkdir -p "$out_dir"
archive=$(cd "$out_dir" && pwd)/$name.tar.gz
url=${RELEASE_URL:-https://github.com/rules-capture/rules_capture/releases/download/v$VERSION/$name.tar.gz}

# gzip -n: no name or time stamp in the gzip header, so the same commit always gives
# the same bytes (git archive itself dates every entry with the commit's time).
git archive --format=tar --prefix="$name/" "$commit" | gzip -n -9 >"$archive"
sha256=$(sha256sum "$archive" | cut -d' ' -f1)
integrity=sha256-$(openssl dgst -sha256 -binary "$archive" | openssl base64 -A)

cat <<OUT
archive:   $archive
commit:    $commit
sha256:    $sha256
integrity: $integrity

# ---- MODULE.bazel (Bzlmod) --------------------------------------------------------
bazel_dep(name = "rules_capture", version = "$VERSION")

# Until rules_capture $VERSION is in the Bazel Central Registry:
archive_override(
    module_name = "rules_capture",
    integrity = "$integrity",
    strip_prefix = "$name",
    urls = ["$url"],
)

# ---- WORKSPACE (Bazel 7) ----------------------------------------------------------
load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")

http_archive(
    name = "rules_capture",
    sha256 = "$sha256",
    strip_prefix = "$name",
    urls = ["$url"],
)

load("@rules_capture//:repositories.bzl", "rules_capture_dependencies")

rules_capture_dependencies()
# ...then the rest of docs/getting-started.md's WORKSPACE.
OUT
