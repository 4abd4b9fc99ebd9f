#!/bin/bash
# bazel_test.sh - tests of tools/bazel's choice of Bazel (no real Bazel needed: fake
# `bazel` programs on PATH print which one ran). Run by tools/test.sh.
set -euo pipefail
TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
fails=0

fake() { # fake DIR NAME VERSION_LINE - a bazel that reports a version, else its name and args
  mkdir -p "$1"
  cat >"$1/$2" <<FAKE
#!/bin/sh
if [ "\$1" = --version ]; then echo "$3"; exit 0; fi
echo "ran $1/$2 \$*"
FAKE
  chmod 755 "$1/$2"
}

expect() { # expect NAME WANT_OUTPUT_SUBSTRING WANT_EXIT COMMAND...
  local name=$1 want=$2 want_rc=$3 out rc=0
  shift 3
  out=$("$@" 2>&1) || rc=$?
  if [[ "$out" == *"$want"* ]] && [ "$rc" = "$want_rc" ]; then
    echo "PASS: $name"
  else
    echo "FAIL: $name: got exit $rc, output: $out"
    echo "      want exit $want_rc, output containing: $want"
    fails=$((fails + 1))
  fi
}

fake "$tmp/b7" bazel "bazel 7.4.1"
fake "$tmp/b8" bazel "bazel 8.2.0"
fake "$tmp/b6" bazel "bazel 6.5.0"
fake "$tmp/isk" bazelisk "Bazelisk version: v1.25.0"
fake "$tmp/real" bazel-real "bazel 7.7.1"
mkdir -p "$tmp/self" && ln -s "$TOOLS/bazel" "$tmp/self/bazel"
base=/usr/bin:/bin

expect "a Bazel 7 on PATH runs with the arguments" "ran $tmp/b7/bazel test //..." 0 \
  env PATH="$tmp/b7:$base" "$TOOLS/bazel" test //...
expect "the first usable Bazel on PATH wins" "ran $tmp/b8/bazel info" 0 \
  env PATH="$tmp/b6:$tmp/b8:$tmp/b7:$base" "$TOOLS/bazel" info
expect "bazelisk on PATH is used" "ran $tmp/isk/bazelisk build //x" 0 \
  env PATH="$tmp/isk:$base" "$TOOLS/bazel" build //x
expect "BAZEL_REAL (set by bazelisk and Bazel's launcher) comes first" "ran $tmp/real/bazel-real version" 0 \
  env BAZEL_REAL="$tmp/real/bazel-real" PATH="$tmp/b7:$base" "$TOOLS/bazel" version
expect "a PATH entry leading back to tools/bazel is skipped" "ran $tmp/b7/bazel version" 0 \
  env PATH="$tmp/self:$tmp/b7:$base" "$TOOLS/bazel" version

# No usable Bazel and not root: one line saying why and what to do, exit 3.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
  cp -r "$TOOLS" "$tmp/ws" 2>/dev/null || true   # a copy the unprivileged user can read
  mkdir -p "$tmp/wsroot" && mv "$tmp/ws" "$tmp/wsroot/tools" && chmod -R a+rX "$tmp/wsroot"
  gopath=$(dirname "$(command -v go)")
  as_nobody() { (cd / && timeout 20 runuser -u nobody -- env "$@"); }
  expect_one_line() { # NAME ENV... - exit 3 and one line naming the fix
    local name=$1 out rc=0 lines
    shift
    out=$(as_nobody "$@" "$tmp/wsroot/tools/bazel" test //... 2>&1) || rc=$?
    lines=$(printf '%s\n' "$out" | wc -l)
    if [ "$rc" = 3 ] && [ "$lines" = 1 ] && [[ "$out" == *"needs root"*"install Bazel >= 7"* ]]; then
      echo "PASS: $name"
    else
      echo "FAIL: $name: exit $rc, $lines line(s): $out"
      fails=$((fails + 1))
    fi
  }
  expect_one_line "non-root without Bazel fails with one line" PATH="$tmp/b6:$base:$gopath"
  # A launcher on PATH that runs tools/bazel again without BAZEL_REAL: the second
  # tools/bazel must not pick the launcher again (that would loop forever).
  mkdir -p "$tmp/loop"
  printf '#!/bin/sh\n[ "$1" = --version ] && { echo "bazel 7.0.0"; exit 0; }\nexec %s "$@"\n' \
    "$tmp/wsroot/tools/bazel" >"$tmp/loop/bazel"
  chmod 755 "$tmp/loop/bazel"
  expect_one_line "a launcher that re-runs tools/bazel does not loop" PATH="$tmp/loop:$base:$gopath"
else
  echo "SKIP: non-root case (needs root and runuser to switch to nobody)"
fi

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
