#!/bin/bash
# shop_rotation.sh - rotated capture of the example shop, each segment replayed alone:
#   1. bazel build //examples/shop:shop_capture, the load generator, capture,
#      //examples/shop:replay_tests and //rules/tests/shop_regression:variant_replay_test
#      (the replay test of a pricing whose volume-tier boundary is off by one:
#      `qty >= t.MinQuantity` turned into `qty > t.MinQuantity`);
#   2. run shop_capture with CAPTURE_ROTATE=$ROTATE (CAPTURE_POLICY=block, every
#      segment kept) under the load generator for $DURATION at $RATE requests/s
#      (open loop; RATE=0: closed loop, as fast as the shop answers);
#   3. capture verify and capture stats on every segment;
#   4. replay every segment alone, each in a fresh process of the replay_tests
#      binary (lab/scripts/replayalone.go: the child protocol the test uses for
#      each of its own logs): every one must pass;
#   5. the same with the variant's replay test: a segment exercises the change
#      when it holds a quote that gave a volume discount to a line whose
#      quantity sits on a tier boundary (10, 50, 100; as
#      rules/tests/shop_regression/regression_test.sh checks), and every such
#      segment must diverge, at the RETURN_IN of (*Pricer).Quote;
#   6. a table per segment and the counts.
# With --check-in N it also copies N segments that start at a checkpoint (the
# second one on), each under 300 KiB, into examples/shop/testdata/capture/ as
# shop_rotated_segNNNNNN.arrow, replacing those there.
# Usage: lab/scripts/shop_rotation.sh [--check-in N]
#   env: ROTATE=5s DURATION=4m RATE=300 CONCURRENCY=8 SEED=1 OUT=dir
# Exit status 0 when there are at least two segments, every segment passed
# alone, and every segment that exercises the change diverged.
set -euo pipefail
WS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$WS"
BAZEL=${BAZEL:-$WS/tools/bazel}
ROTATE=${ROTATE:-5s}
DURATION=${DURATION:-4m}
RATE=${RATE:-300}
CONCURRENCY=${CONCURRENCY:-8}
SEED=${SEED:-1}
OUT=${OUT:-$(mktemp -d /tmp/shop-rotation.XXXXXX)}
CHECK_IN=0
if [ "${1:-}" = "--check-in" ]; then CHECK_IN=${2:?--check-in needs a count}; fi
mkdir -p "$OUT"

"$BAZEL" build //examples/shop:shop_capture //examples/shop/cmd/loadgen //tool/cmd/capture \
  //examples/shop:replay_tests //rules/tests/shop_regression:variant_replay_test
BIN=$("$BAZEL" info bazel-bin 2>/dev/null)
shop=$BIN/examples/shop/shop_capture
loadgen=$BIN/examples/shop/cmd/loadgen/loadgen_/loadgen
capture=$BIN/tool/cmd/capture/capture_/capture
replay_tests=$BIN/examples/shop/replay_tests
variant=$BIN/rules/tests/shop_regression/variant_replay_test
go build -o "$OUT/replayalone" lab/scripts/replayalone.go

cleanup() { [ -f "$OUT/pid" ] && kill "$(cat "$OUT/pid")" 2>/dev/null || true; }
trap cleanup EXIT

echo "== rules_capture $(git rev-parse --short HEAD)$([ -z "$(git status --porcelain -- runtime tool examples/shop)" ] || echo ' (runtime/, tool/ or examples/shop modified)'), $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "== shop_capture with CAPTURE_ROTATE=$ROTATE under the load generator: $DURATION at $([ "$RATE" = 0 ] && echo 'the closed loop' || echo "$RATE req/s"), seed $SEED"
CAPTURE_POLICY=block CAPTURE_ROTATE="$ROTATE" CAPTURE_DIR="$OUT/logs" \
  "$shop" -addr 127.0.0.1:0 -addr-file "$OUT/addr" -db "$OUT/shop.db" >"$OUT/shop.out" 2>&1 &
echo $! >"$OUT/pid"
for _ in $(seq 100); do [ -s "$OUT/addr" ] && break; sleep 0.1; done
[ -s "$OUT/addr" ] || { cat "$OUT/shop.out"; echo "shop_capture did not start" >&2; exit 1; }
"$loadgen" -url "http://$(cat "$OUT/addr")" -duration "$DURATION" -rate "$RATE" -concurrency "$CONCURRENCY" \
  -warmup 0 -seed "$SEED" >"$OUT/load.txt"
head -3 "$OUT/load.txt"
pid=$(cat "$OUT/pid")
kill -TERM "$pid"
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
rm -f "$OUT/pid"

mapfile -t segs < <(find "$OUT/logs" -name '*.arrow' | sort)
K=${#segs[@]}
echo "== $K segment(s) in $OUT/logs"
"$capture" verify "$OUT/logs" | sed 's|^.*/||' >"$OUT/verify.txt" || { cat "$OUT/verify.txt"; echo "capture verify failed" >&2; exit 1; }
"$capture" stats -json "$OUT/logs" >"$OUT/stats.json"

echo "== replaying each segment alone: //examples/shop:replay_tests"
"$OUT/replayalone" -harness "$replay_tests" -reports "$OUT/reports" "${segs[@]}" >"$OUT/baseline.txt" || true
echo "== replaying each segment alone: //rules/tests/shop_regression:variant_replay_test"
"$OUT/replayalone" -harness "$variant" -reports "$OUT/variant-reports" "${segs[@]}" >"$OUT/variant.txt" || true

quote='RETURN_IN (*github.com/rules-capture/rules_capture/examples/shop/pricing.Pricer).Quote('
boundary='"(coffee|tea|equipment|merch)", (10|50|100), [0-9]+, [0-9]+, [0-9]+, [0-9]+, \[[^]]*\{"volume"'
passed=0 exercising=0 diverged=0 caught=0 false_div=0 at_quote=0
printf '%-20s %8s %9s %11s %6s %9s %-9s %s\n' segment events bytes from_event ckpts exercises baseline variant | tee "$OUT/table.txt"
for seg in "${segs[@]}"; do
  name=$(basename "$seg")
  short=${name##*.seg}; short=${short%.arrow}
  st=$(jq -c --arg p "$seg" 'select(.path == $p)' "$OUT/stats.json")
  events=$(jq -r '.events' <<<"$st")
  from=$(jq -r '.segment_from // "-"' <<<"$st")
  ckpts=$(jq -r '"\(.checkpoints // 0)/\([.checkpoints_refused // [] | .[].count] | add // 0)"' <<<"$st")
  bytes=$(stat -c %s "$seg")
  ex=no
  # (a count, not grep -q: under pipefail, inspect killed by SIGPIPE would fail the test)
  nb=$("$capture" inspect -kind RETURN_IN -site 'pricing.Pricer).Quote' "$seg" | grep -Ec "$boundary" || true)
  if [ "$nb" -gt 0 ]; then
    ex=yes exercising=$((exercising + 1))
  fi
  base=$(awk -v s="$seg" '$2 == s { print $1; exit }' "$OUT/baseline.txt")
  [ "$base" = PASS ] && passed=$((passed + 1))
  var=$(awk -v s="$seg" '$2 == s { print $1; exit }' "$OUT/variant.txt")
  vdesc=$var
  if [ "$var" = DIVERGED ]; then
    diverged=$((diverged + 1))
    vseq=$(awk -v s="$seg" '$2 == s { print $4; exit }' "$OUT/variant.txt" | tr -d :)
    vdesc="DIVERGED at seq $vseq"
    if awk -v s="$seg" -v q="expected $quote" '$2 == s && index($0, q) { f = 1 } END { exit !f }' "$OUT/variant.txt"; then
      at_quote=$((at_quote + 1)) vdesc="$vdesc (Quote)"
    fi
    if [ "$ex" = yes ]; then caught=$((caught + 1)); else false_div=$((false_div + 1)); fi
  fi
  printf '%-20s %8s %9s %11s %6s %9s %-9s %s\n' "seg$short" "$events" "$bytes" "$from" "$ckpts" "$ex($nb)" "$base" "$vdesc" | tee -a "$OUT/table.txt"
done

echo
echo "== summary"
echo "segments (K)                          $K"
echo "passed alone (replay_tests)           $passed of $K"
echo "exercise the planted change           $exercising"
echo "diverge under the variant             $diverged ($caught of the $exercising that exercise it, $false_div others; $at_quote at the RETURN_IN of Quote)"
grep -E '^(ERROR|DIVERGED)' "$OUT/baseline.txt" | head -5 || true
ok=1
[ "$K" -ge 2 ] || { echo "FAIL: no rotation: one file (capture stats: $(jq -r '[.checkpoints_refused // [] | .[] | .reason] | first // "no refusal"' <<<"$(head -1 "$OUT/stats.json")"))"; ok=0; }
[ "$passed" -eq "$K" ] || { echo "FAIL: $((K - passed)) segment(s) did not pass alone"; ok=0; }
[ "$caught" -eq "$exercising" ] || { echo "FAIL: $((exercising - caught)) segment(s) exercise the change and did not diverge"; ok=0; }

if [ "$CHECK_IN" -gt 0 ] && [ "$ok" = 1 ]; then
  dest=examples/shop/testdata/capture
  rm -f "$dest"/shop_rotated_seg*.arrow
  n=0
  for seg in "${segs[@]:1}"; do
    [ "$n" -lt "$CHECK_IN" ] || break
    [ "$(stat -c %s "$seg")" -le $((300 * 1024)) ] || continue
    install -m 644 "$seg" "$dest/shop_rotated_seg${seg##*.seg}"
    n=$((n + 1))
  done
  echo "checked in $n segment(s) into $dest"
fi
echo "outputs: $OUT"
[ "$ok" = 1 ]
