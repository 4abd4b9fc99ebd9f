#!/bin/bash
# tools/release_test.sh - tools/release.sh makes an archive of the committed tree
# whose printed sha256, SRI integrity and snippets are right, and the same bytes twice.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if tools/release.sh v1.2.3 >/dev/null 2>&1; then fail "a version with a leading v was accepted"; fi
if tools/release.sh "" >/dev/null 2>&1; then fail "an empty version was accepted"; fi

OUT_DIR=$tmp/a RELEASE_URL=file:///srv/r.tar.gz tools/release.sh 1.2.3 HEAD >"$tmp/out"
OUT_DIR=$tmp/b tools/release.sh 1.2.3 HEAD >/dev/null
a=$tmp/a/rules_capture-1.2.3.tar.gz
[ -f "$a" ] || fail "no archive at $a"
cmp -s "$a" "$tmp/b/rules_capture-1.2.3.tar.gz" || fail "two runs on one commit gave different archives"

field() { sed -n "s/^$1: *//p" "$tmp/out"; }
[ "$(field sha256)" = "$(sha256sum "$a" | cut -d' ' -f1)" ] || fail "printed sha256 is not the archive's"
want=sha256-$(python3 -c 'import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(open(sys.argv[1], "rb").read()).digest()).decode())' "$a")
[ "$(field integrity)" = "$want" ] || fail "printed integrity $(field integrity), want $want"
grep -qF "integrity = \"$want\"" "$tmp/out" || fail "archive_override lacks the integrity"
grep -qF "sha256 = \"$(field sha256)\"" "$tmp/out" || fail "http_archive lacks the sha256"
grep -qF 'bazel_dep(name = "rules_capture", version = "1.2.3")' "$tmp/out" || fail "no bazel_dep line"
[ "$(grep -c 'strip_prefix = "rules_capture-1.2.3"' "$tmp/out")" = 2 ] || fail "strip_prefix missing in a snippet"
[ "$(grep -c 'urls = \["file:///srv/r.tar.gz"\]' "$tmp/out")" = 2 ] || fail "RELEASE_URL not used in both snippets"

# The archive holds exactly the committed files, under the prefix.
tar -tzf "$a" | grep -v '/$' | sort >"$tmp/listed"
git ls-tree -r --name-only HEAD | sed 's|^|rules_capture-1.2.3/|' | sort >"$tmp/committed"
diff -u "$tmp/committed" "$tmp/listed" || fail "archive contents differ from the commit's files"
for f in MODULE.bazel WORKSPACE repositories.bzl go_repositories.bzl e2e/bzlmod/MODULE.bazel; do
  grep -qx "rules_capture-1.2.3/$f" "$tmp/listed" || fail "$f is not in the archive"
done
echo "ok: release archive, checksums and snippets"
