#!/bin/bash
# regression_test.sh VARIANT_TEST NO_UNITS_TEST
# Runs two replay tests of //rules/tests/generics that must fail, and checks
# that each fails for its own reason:
#   VARIANT_TEST  gen.Max returns the smaller argument: the replay diverges at
#                 the RETURN_IN of the gen.Max[int] incall, which the harness
#                 instantiated (the log expected 7).
#   NO_UNITS_TEST the harness does not link the package of the type argument
#                 of gen.Sum[units.Celsius]: the replay diverges at its CALL_IN,
#                 saying the build does not contain that instantiation.
set -euo pipefail
variant=$1 no_units=$2

fail() { echo "FAIL: $*"; exit 1; }
field() { awk -v k="  $1:" 'index($0, k) == 1 { sub(/^  [a-z]+: */, ""); print; exit }' "$2"; }
gen=github.com/rules-capture/rules_capture/rules/tests/generics/gen

# run NAME TEST: runs TEST, which must fail in a replay subtest; prints the
# directory of its divergence reports.
run() {
  local out=${TEST_TMPDIR:-$(mktemp -d)}/$1
  mkdir -p "$out"
  set +e
  env -u XML_OUTPUT_FILE -u TEST_TOTAL_SHARDS -u TEST_SHARD_INDEX -u TEST_SHARD_STATUS_FILE \
    TEST_UNDECLARED_OUTPUTS_DIR="$out" "$2" >"$out/test.log" 2>&1
  local rc=$?
  set -e
  [ "$rc" -ne 0 ] || { cat "$out/test.log" >&2; fail "$1 passed: the change went unnoticed"; }
  grep -q -- '--- FAIL: TestReplay/' "$out/test.log" || { cat "$out/test.log" >&2; fail "$1 failed, but not in a replay subtest"; }
  local reports=("$out"/*.divergence.txt)
  [ -f "${reports[0]}" ] || { cat "$out/test.log" >&2; fail "$1: no divergence report"; }
  echo "$out"
}

out=$(run variant "$variant")
for report in "$out"/*.divergence.txt; do
  expected=$(field expected "$report")
  actual=$(field actual "$report")
  case "$expected" in "RETURN_IN $gen.Max[int]("*"7"*) ;; *) fail "$report: expected event is not the RETURN_IN of gen.Max[int] with 7: $expected";; esac
  case "$actual" in "RETURN_IN $gen.Max[int]("*"3"*) ;; *) fail "$report: actual event is not the variant's RETURN_IN of gen.Max[int] with 3: $actual";; esac
  echo "ok: variant diverges at the return of gen.Max[int]: $(basename "$report")"
done

out=$(run no_units "$no_units")
for report in "$out"/*.divergence.txt; do
  grep -q 'generic instantiation that this replay build does not contain' "$report" || fail "$report: the reason is not the missing instantiation"
  expected=$(field expected "$report")
  case "$expected" in "CALL_IN $gen.Sum[github.com/rules-capture/rules_capture/rules/tests/generics/units.Celsius]"*) ;;
    *) fail "$report: expected event is not the CALL_IN of gen.Sum[units.Celsius]: $expected";; esac
  echo "ok: without units the replay diverges at the call of gen.Sum[units.Celsius]: $(basename "$report")"
done
