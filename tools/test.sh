#!/bin/bash
# tools/test.sh - run every test and check of rules_capture. This is THE test command
# (README, CI: .ci/run runs exactly this). Exit status 0 means everything passed.
#
# Each check is one `step NAME COMMAND...`; steps run in order, each is timed, a failed
# step does not stop the later ones, and a summary table ends the output. To add a
# check, add a step below (keep it runnable on a fresh clone, offline).
#
#   tools/test.sh            all steps
#   tools/test.sh vet race   only the steps whose names contain one of the words
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
WS=$PWD
BAZEL=$WS/tools/bazel
# Quieter Bazel output for logs (no progress bars); same flags for every command so
# the Bazel server's analysis cache survives between steps.
BAZEL_FLAGS=(--curses=no --color=no --show_progress_rate_limit=60)

names=() results=() times=()
failed=0
only=("$@")

selected() {
  [ ${#only[@]} = 0 ] && return 0
  local w
  for w in "${only[@]}"; do case "$1" in *"$w"*) return 0 ;; esac; done
  return 1
}

step() { # step NAME COMMAND... - run one named, timed check
  local name=$1 rc start end
  shift
  selected "$name" || return 0
  printf '\n==== %s\n' "$name"
  start=$(date +%s.%N)
  "$@"
  rc=$?
  end=$(date +%s.%N)
  names+=("$name")
  times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')")
  if [ $rc = 0 ]; then results+=(ok); else results+=("FAILED (exit $rc)"); failed=1; fi
  printf -- '---- %s: %s in %ss\n' "$name" "${results[-1]}" "${times[-1]}"
}

# ---- the checks ------------------------------------------------------------------

gofmt_clean() {
  local files
  files=$(gofmt -l $(git ls-files -co --exclude-standard '*.go' | grep -v '/testdata/'))
  [ -z "$files" ] || { echo "not gofmt-ed (run gofmt -w):"; echo "$files"; return 1; }
}

# deps.bzl must be what `bazel run //:gazelle_update_repos` makes of go.mod. Gazelle
# rewrites the file in place, so compare against a copy and put the original back.
deps_current() {
  local saved rc=0
  saved=$(mktemp)
  cp deps.bzl "$saved"
  "$BAZEL" run "${BAZEL_FLAGS[@]}" //:gazelle_update_repos || rc=$?
  if [ $rc = 0 ] && ! diff -u "$saved" deps.bzl; then
    echo "deps.bzl is out of date with go.mod: run 'tools/bazel run //:gazelle_update_repos' and commit deps.bzl"
    rc=1
  fi
  cp "$saved" deps.bzl
  rm -f "$saved"
  return $rc
}

# buildifier (built by Bazel from github.com/bazelbuild/buildtools): formatting and
# lint warnings of every Starlark file in the repository.
buildifier_clean() {
  local files=()
  mapfile -t files < <(git ls-files -co --exclude-standard \
    'WORKSPACE' '*.bazel' '*.bzl' '**/BUILD' | grep -v '/testdata/' | sed "s|^|$WS/|")
  "$BAZEL" run "${BAZEL_FLAGS[@]}" //:buildifier -- -mode=check -lint=warn "${files[@]}" ||
    { echo "fix with: tools/bazel run //:buildifier -- -lint=fix <files>"; return 1; }
}

# Bazel's first use on a fresh machine is mostly waiting on the network (provisioning,
# fetching external repositories) while the go steps mostly use the CPU: start it in the
# background now. Best effort (--keep_going: a broken target is reported by the Bazel
# steps, not here); the step "bazel: provision + fetch" waits for it and then checks
# that Bazel answers.
bazel_warmup_log=$(mktemp)
bazel_warmup_pid=
if selected "bazel" || selected "gazelle" || selected "buildifier"; then
  "$BAZEL" fetch "${BAZEL_FLAGS[@]}" --keep_going //... >"$bazel_warmup_log" 2>&1 &
  bazel_warmup_pid=$!
fi
bazel_ready() {
  if [ -n "$bazel_warmup_pid" ]; then
    wait "$bazel_warmup_pid" || echo "(bazel fetch --keep_going //... exited $?; the Bazel steps show why)"
    bazel_warmup_pid=
    grep -E '^tools/bazel:' "$bazel_warmup_log"
  fi
  "$BAZEL" info "${BAZEL_FLAGS[@]}" release || { cat "$bazel_warmup_log"; return 1; }
}

# The shop's replay tests again, outside Bazel, with the network unshared and an empty
# environment: replay must read nothing but its runfiles (hermetic replay, docs/divergence.md).
replay_hermetic() {
  local bin
  # Build it here: when the disk cache holds the test's result, `bazel test` does not
  # fetch the test binary into the output base.
  "$BAZEL" build "${BAZEL_FLAGS[@]}" //examples/shop:replay_tests || return 1
  bin=$("$BAZEL" info "${BAZEL_FLAGS[@]}" bazel-bin 2>/dev/null) || return 1
  [ -x "$bin/examples/shop/replay_tests" ] || { echo "bazel-bin/examples/shop/replay_tests is missing after bazel build"; return 1; }
  ls examples/shop/testdata/capture/*.arrow >/dev/null || { echo "no checked-in shop logs to replay"; return 1; }
  unshare -n env -i RUNFILES_DIR="$bin/examples/shop/replay_tests.runfiles" \
    TEST_TMPDIR="$(mktemp -d)" "$bin/examples/shop/replay_tests" -test.v 2>&1 | tail -20
  return "${PIPESTATUS[0]}"
}

# The end-to-end workspaces (e2e/run.sh): rules_capture used from a workspace of its own,
# as a module and through WORKSPACE. Each has its own Bazel server: stop it afterwards,
# so that two servers do not hold memory at once.
e2e_run() {
  local rc=0
  e2e/run.sh "$1" || rc=$?
  (cd "e2e/$1" && "$BAZEL" shutdown) || true
  return $rc
}

status_before=$(git status --porcelain)
tree_unchanged() {
  local now
  now=$(git status --porcelain)
  if [ "$now" != "$status_before" ]; then
    echo "the tests changed the working tree (generated files must not stay in it):"
    diff <(echo "$status_before") <(echo "$now")
    return 1
  fi
  if [ -n "$now" ]; then echo "note: the tree was not clean before the tests either:"; echo "$now"; fi
}

step "tools/bazel picks a Bazel"      tools/bazel_test.sh
step "tools/offline mounts"           tools/offline/mounts_test.sh
step "gofmt"                          gofmt_clean
step "go vet ./..."                   go vet ./...
step "go test -race ./..."            go test -race -timeout 60m ./...
step "bazel: provision + fetch //..."  bazel_ready
step "bazel test //..."               "$BAZEL" test "${BAZEL_FLAGS[@]}" //...
step "replay hermetic (unshare -n, env -i)" replay_hermetic
step "eventlog interop (apache-arrow JS)" runtime/eventlog/interop/run.sh
step "conformance study (quick slice)" go run ./tool/cmd/capture study -quick
step "gazelle: BUILD files current"   "$BAZEL" test "${BAZEL_FLAGS[@]}" //:gazelle_test
step "gazelle: deps.bzl matches go.mod" deps_current
step "buildifier"                     buildifier_clean
step "git status clean"               tree_unchanged
step "release archive (tools/release.sh)" tools/release_test.sh
step "go_repositories.bzl matches deps.bzl" tools/gen_go_repositories.sh -check
step "e2e/bzlmod (Bazel 9 flags)"     e2e_run bzlmod
step "e2e/workspace (WORKSPACE)"      e2e_run workspace

# ---- summary ---------------------------------------------------------------------
if [ -n "$bazel_warmup_pid" ]; then wait "$bazel_warmup_pid" 2>/dev/null; fi
rm -f "$bazel_warmup_log"
printf '\n==== summary\n'
for i in "${!names[@]}"; do
  printf '%-36s %8ss  %s\n' "${names[$i]}" "${times[$i]}" "${results[$i]}"
done
printf '%-36s %8ss  %s\n' "total" "$SECONDS" "$([ $failed = 0 ] && echo ok || echo FAILED)"
exit $failed
