#!/bin/bash
# regression_test.sh VARIANT_TEST PRICING_GO CAPTURE LOG...
# Runs the replay test of the pricing variant (volume tier boundary off by one)
# and checks that it fails for the right reason: every divergence report names
# the RETURN_IN of (*Pricer).Quote at the line of its declaration in
# pricing.go, the log holds exactly that event at that sequence number, and the
# quote the log expected gave a volume discount to a line whose quantity sits
# on a tier boundary (10, 50, 100) that the variant's quote no longer gives.
set -euo pipefail
variant=$1 pricing=$2 capture=$3; shift 3
logs=("$@")

fail() { echo "FAIL: $*"; exit 1; }
field() { awk -v k="  $1:" 'index($0, k) == 1 { sub(/^  [a-z]+: */, ""); print; exit }' "$2"; }

quote_line=$(grep -n '^func (p \*Pricer) Quote(' "$pricing" | cut -d: -f1)
[ -n "$quote_line" ] || fail "no func (p *Pricer) Quote in $pricing"

out=${TEST_TMPDIR:-$(mktemp -d)}/variant_outputs
mkdir -p "$out"
set +e
env -u XML_OUTPUT_FILE -u TEST_TOTAL_SHARDS -u TEST_SHARD_INDEX -u TEST_SHARD_STATUS_FILE \
  TEST_UNDECLARED_OUTPUTS_DIR="$out" "$variant" >"$out/test.log" 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] || { cat "$out/test.log"; fail "the replay of the pricing variant passed: the regression went unnoticed"; }
grep -q -- '--- FAIL: TestReplay/' "$out/test.log" || { cat "$out/test.log"; fail "the variant failed, but not in a replay subtest"; }

site='RETURN_IN (*github.com/rules-capture/rules_capture/examples/shop/pricing.Pricer).Quote('
boundary='"(coffee|tea|equipment|merch)", (10|50|100), [0-9]+, [0-9]+, [0-9]+, [0-9]+, \[[^]]*\{"volume"'
reports=0
for log in "${logs[@]}"; do
  name=$(basename "$log" .arrow)
  report=$out/$name.divergence.txt
  [ -f "$report" ] || continue
  reports=$((reports + 1))
  # The first occurrence: the report ends with the replay's own output, which
  # repeats the divergence.
  seq=$(awk '/^divergence at seq / { print $4; exit }' "$report")
  at=$(field at "$report")
  expected=$(field expected "$report")
  actual=$(field actual "$report")
  [ -n "$seq" ] || fail "$report: no sequence number"
  case "$at" in *pricing.go:"$quote_line") ;; *) fail "$report: divergence at '$at', want pricing.go:$quote_line (func (p *Pricer) Quote)";; esac
  case "$expected" in "$site"*) ;; *) fail "$report: expected event is not the RETURN_IN of Pricer.Quote: $expected";; esac
  case "$actual" in "$site"*) ;; *) fail "$report: actual event is not the RETURN_IN of Pricer.Quote: $actual";; esac
  grep -Eq "$boundary" <<<"$expected" || fail "$report: the logged quote has no volume discount on a line at a tier boundary"
  if grep -Eq "$boundary" <<<"$actual"; then fail "$report: the variant's quote still discounts the boundary line"; fi
  # The report's sequence number is that event in the log itself.
  "$capture" inspect "$log" >"$out/$name.inspect.txt" 2>&1 || { cat "$out/$name.inspect.txt"; fail "capture inspect $log failed"; }
  event=$(awk -v s="$seq" '$1 == s { print; exit }' "$out/$name.inspect.txt")
  case "$event" in *"RETURN_IN "*"pricing.Pricer).Quote (pricing/pricing.go:$quote_line)"*) ;;
    *) fail "$log: event $seq is not the RETURN_IN of Pricer.Quote at pricing.go:$quote_line: $event";; esac
  echo "ok: $name diverges at seq $seq, $at: the volume discount of a boundary quantity is gone"
done
[ "$reports" -gt 0 ] || fail "no divergence report in $out"
[ "$reports" -eq "${#logs[@]}" ] || fail "$reports of ${#logs[@]} logs diverged; every checked-in log holds a boundary quantity"
