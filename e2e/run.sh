#!/bin/bash
# e2e/run.sh bzlmod|workspace - use rules_capture from a workspace of its own, as a user
# does: e2e/bzlmod depends on it as a Bazel module (Bzlmod only, Bazel 9's semantics),
# e2e/workspace through WORKSPACE (Bazel 7). Each holds the same small program,
# //:e2e, whose main package observes example.com/e2e/calc. The checks, in order:
#   1. Gazelle: calc/BUILD.bazel regenerated from nothing and the root BUILD.bazel
#      re-run both come out as checked in (the checked-in files are the goldens).
#   2. Capture: //:e2e_capture builds and runs; its log holds the same events as the
#      checked-in testdata/capture/invoice.arrow (`capture inspect`, run from the
#      workspace as `bazel run @rules_capture//tool/cmd/capture`).
#   3. Replay: //:replay_tests passes on the checked-in log.
#   4. Regression: //variant:replay_tests, calc with its volume discount one item later
#      (variant/calc.go is calc/calc.go with one line changed), fails at the event of the
#      10-item line: the RETURN_IN of calc.Total, 4050 expected, 4500 actual, and says
#      so in the report under bazel-testlogs.
#   5. Identity (e2e/bzlmod only): rules_capture's own identity tests,
#      @rules_capture//rules/tests/identity, under Bzlmod with Bazel 9's flags: the
#      normal build through rules_capture's go_library is byte-identical to rules_go's
#      alone (the root workspace runs the same tests in WORKSPACE mode).
# tools/test.sh runs it for both workspaces. The working tree is left as it was.
set -euo pipefail
E2E=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=${1:?usage: e2e/run.sh bzlmod|workspace}
[ -f "$E2E/$mode/BUILD.bazel" ] || { echo "e2e/run.sh: no workspace e2e/$mode" >&2; exit 2; }
cd "$E2E/$mode"
BAZEL=${BAZEL:-$E2E/../tools/bazel}
FLAGS=(--curses=no --color=no --show_progress_rate_limit=60)
tmp=$(mktemp -d)
saved=$tmp/saved
mkdir -p "$saved/calc"
cp BUILD.bazel "$saved/BUILD.bazel"
cp calc/BUILD.bazel "$saved/calc/BUILD.bazel"
restore() {
  cp "$saved/BUILD.bazel" BUILD.bazel
  cp "$saved/calc/BUILD.bazel" calc/BUILD.bazel
  rm -rf "$tmp"
}
trap restore EXIT
fail() { echo "FAIL (e2e/$mode): $*"; exit 1; }
t0=$SECONDS
lap() { echo "---- e2e/$mode: $1 ok ($((SECONDS - t0))s)"; t0=$SECONDS; }

# 1. Gazelle.
rm calc/BUILD.bazel
"$BAZEL" run "${FLAGS[@]}" //:gazelle
for f in BUILD.bazel calc/BUILD.bazel; do
  [ -f "$f" ] || fail "Gazelle did not write $f"
  diff -u "$saved/$f" "$f" || fail "Gazelle's $f differs from the checked-in one (above)"
done
lap "gazelle (golden BUILD files)"

# 2. Capture.
"$BAZEL" build "${FLAGS[@]}" //:e2e_capture
bin=$("$BAZEL" info "${FLAGS[@]}" bazel-bin)
# The new log goes under Bazel's output base: `bazel run` may run the capture command
# where only the workspace and Bazel's directories are seen (tools/bazel's chroot).
logs=$(mktemp -d -p "$("$BAZEL" info "${FLAGS[@]}" output_base)" e2e-run.XXXXXX)
trap 'restore; rm -rf "$logs"' EXIT
CAPTURE_LOG=$logs/run.arrow CAPTURE_POLICY=block "$bin/e2e_capture" >"$tmp/stdout"
grep -q '^notebook  10 x   450 =   4050$' "$tmp/stdout" || { cat "$tmp/stdout"; fail "unexpected output of e2e_capture"; }
[ -s "$logs/run.arrow" ] || fail "e2e_capture wrote no log"
events() { # the event lines of `capture inspect LOG` (the header names the run)
  "$BAZEL" run "${FLAGS[@]}" @rules_capture//tool/cmd/capture -- inspect "$1" | grep -v '^#'
}
events "$logs/run.arrow" >"$tmp/run.events"
events "$PWD/testdata/capture/invoice.arrow" >"$tmp/checked_in.events"
[ "$(grep -c 'CALL_IN  *example.com/e2e/calc.Total' "$tmp/run.events")" = 3 ] ||
  { cat "$tmp/run.events"; fail "the log does not hold the 3 calls of calc.Total"; }
diff -u "$tmp/checked_in.events" "$tmp/run.events" ||
  fail "the new log's events differ from the checked-in log's (above)"
lap "capture (build, run, log = checked-in log)"

# 3. Replay.
"$BAZEL" test "${FLAGS[@]}" //:replay_tests || fail "replay of the checked-in log failed"
lap "replay_tests pass"

# 4. Regression.
[ "$(diff calc/calc.go variant/calc.go | grep -c '^[<>]')" = 2 ] ||
  fail "variant/calc.go must be calc/calc.go with exactly one line changed"
rc=0
"$BAZEL" test "${FLAGS[@]}" //variant:replay_tests >"$tmp/variant.out" 2>&1 || rc=$?
[ "$rc" = 3 ] || { cat "$tmp/variant.out"; fail "the changed calc's replay exited $rc, want 3 (test failed)"; }
testlogs=$("$BAZEL" info "${FLAGS[@]}" bazel-testlogs)
report=$testlogs/variant/replay_tests/test.outputs/invoice.divergence.txt
[ -f "$report" ] || { cat "$tmp/variant.out"; fail "no divergence report at $report"; }
grep -q '^divergence at seq 4 ' "$report" || { cat "$report"; fail "the report does not name event 4"; }
grep -Eq '^ +expected: +RETURN_IN example.com/e2e/calc.Total\(4050\)' "$report" &&
  grep -Eq '^ +actual: +RETURN_IN example.com/e2e/calc.Total\(4500\)' "$report" ||
  { cat "$report"; fail "the report does not show the 10-item line's lost discount"; }
echo "report: $report"
sed -n '1,4p' "$report"
lap "changed calc fails at the expected event"

# 5. Identity, in Bzlmod mode.
if [ "$mode" = bzlmod ]; then
  "$BAZEL" test "${FLAGS[@]}" @rules_capture//rules/tests/identity:all ||
    fail "the identity tests failed under Bzlmod"
  lap "identity tests (Bzlmod)"
fi
