#!/bin/bash
# shop_rotation_cost.sh - what rotation costs the example shop, measured in one run:
#   1. bazel build //examples/shop:shop_capture, the load generator and capture;
#   2. start two shop_capture servers side by side on fresh databases, the same
#      binary and the same GOGC/GOMEMLIMIT: "plain" writes one log, "rotated"
#      runs with CAPTURE_ROTATE=$ROTATE CAPTURE_KEEP=$KEEP;
#   3. closed loop (8 workers, each sends its next request when the previous
#      one is answered): `loadgen -compare` sends the same seeded workload to
#      both in alternating rounds (A B, B A, ...) and prints each round, the
#      medians, the paired ratio rotated/plain with its interval, and each
#      server's CPU time per request (/proc/PID/stat);
#   4. stop both and read the logs: segments written (and kept), checkpoints
#      taken and refused, with the reasons;
#   5. with BENCH=1 (the default), the checkpoint and rotation benchmarks of
#      runtime/probe (µs per checkpoint against the live objects it holds).
# Usage: lab/scripts/shop_rotation_cost.sh
#   env: ROUNDS=11 N=8000 WARMUP=400 CONCURRENCY=8 SEED=1 ROTATE=5s KEEP=8
#        GOGC=100 GOMEMLIMIT=1GiB BENCH=1 OUT=dir
# The numbers depend on the machine and what else runs on it: the script prints
# the load average before and after; compare the ratios, not the rates.
set -euo pipefail
WS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$WS"
BAZEL=${BAZEL:-$WS/tools/bazel}
ROUNDS=${ROUNDS:-11}
N=${N:-8000}
WARMUP=${WARMUP:-400}
CONCURRENCY=${CONCURRENCY:-8}
SEED=${SEED:-1}
ROTATE=${ROTATE:-5s}
KEEP=${KEEP:-8}
BENCH=${BENCH:-1}
# Both servers collect garbage under the same settings, so that neither gains
# from a heap the other's settings would not give it.
export GOGC=${GOGC:-100}
export GOMEMLIMIT=${GOMEMLIMIT:-1GiB}
OUT=${OUT:-$(mktemp -d /tmp/shop-rotation-cost.XXXXXX)}
mkdir -p "$OUT"

"$BAZEL" build //examples/shop:shop_capture //examples/shop/cmd/loadgen //tool/cmd/capture
BIN=$("$BAZEL" info bazel-bin 2>/dev/null)
shop=$BIN/examples/shop/shop_capture
loadgen=$BIN/examples/shop/cmd/loadgen/loadgen_/loadgen
capture=$BIN/tool/cmd/capture/capture_/capture

cleanup() {
  local f
  for f in "$OUT"/plain/pid "$OUT"/rotated/pid; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
}
trap cleanup EXIT

start() { # start NAME [VAR=VALUE...]: runs shop_capture on a free port, prints its URL
  local name=$1 dir=$OUT/$1
  shift
  mkdir -p "$dir"
  env "$@" CAPTURE_DIR="$dir/logs" "$shop" -addr 127.0.0.1:0 -addr-file "$dir/addr" -db "$dir/shop.db" >"$dir/server.out" 2>&1 &
  echo $! >"$dir/pid"
  for _ in $(seq 100); do [ -s "$dir/addr" ] && break; sleep 0.1; done
  [ -s "$dir/addr" ] || { cat "$dir/server.out" >&2; echo "$name did not start" >&2; exit 1; }
  echo "http://$(cat "$dir/addr")"
}
stop() { # stop NAME: SIGTERM, and wait until its log is closed
  local pid
  pid=$(cat "$OUT/$1/pid")
  kill -TERM "$pid"
  for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$OUT/$1/pid"
}

plain_url=$(start plain)
rotated_url=$(start rotated CAPTURE_ROTATE="$ROTATE" CAPTURE_KEEP="$KEEP")

echo "== rules_capture $(git rev-parse --short HEAD)$([ -z "$(git status --porcelain -- runtime tool)" ] || echo ' (runtime/ or tool/ modified)'), $(go version | cut -d' ' -f3)"
echo "== GOGC=$GOGC GOMEMLIMIT=$GOMEMLIMIT for both; rotated: CAPTURE_ROTATE=$ROTATE CAPTURE_KEEP=$KEEP"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
"$loadgen" -compare "plain=$plain_url,rotated=$rotated_url" \
  -pids "$(cat "$OUT/plain/pid"),$(cat "$OUT/rotated/pid")" \
  -rounds "$ROUNDS" -n "$N" -warmup "$WARMUP" -concurrency "$CONCURRENCY" -seed "$SEED" | tee "$OUT/closed.txt"
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
stop plain
stop rotated

echo
echo "== logs"
for name in plain rotated; do
  files=$(find "$OUT/$name/logs" -name '*.arrow' | wc -l)
  "$capture" stats -json "$OUT/$name/logs" >"$OUT/$name/stats.json"
  segs=$(jq -s '[.[].rotation // "segment=1" | capture("segment=(?<n>[0-9]+)").n | tonumber] | max' "$OUT/$name/stats.json")
  taken=$(jq -s '[.[].checkpoints // 0] | add' "$OUT/$name/stats.json")
  refused=$(jq -s '[.[].checkpoints_refused // [] | .[].count] | add // 0' "$OUT/$name/stats.json")
  bytes=$(du -cb "$OUT/$name/logs"/*.arrow | awk 'END { print $1 }')
  echo "$name: $files file(s) on disk ($bytes bytes), newest segment number $segs, checkpoints $taken taken, $refused refused"
  jq -rs '[.[].checkpoints_refused // [] | .[]] | map(.reason |= sub("^[0-9]+ "; "N ")) | group_by(.reason) | map("  refused \(map(.count) | add)x: \(.[0].reason)") | .[]' "$OUT/$name/stats.json"
done

echo
echo "== summary (rotated / plain, $ROUNDS rounds of $N requests)"
awk '$1 == "ratio" { printf "throughput, ratio of the medians  %.3f  (p50 %.3f, p99 %.3f)\n", $3, $4, $5 }
     $1 == "paired" && $2 != "throughput" && $2 != "cpu" { printf "throughput, median of the rounds\x27 own ratios  %.3f\n", $3 }
     /^paired throughput ratio/ { sub(/^paired throughput ratio [^,]*, /, ""); print "  interval: " $0 }
     /^paired cpu per request ratio/ { sub(/^paired /, ""); print $0 }
     $1 == "median" { printf "median %-8s %9.1f req/s  %7.1f us CPU per request\n", $2, $3, $6 }' "$OUT/closed.txt"
# The spread: each server's rounds, lowest and highest throughput.
awk '$1 ~ /^[0-9]+$/ && ($2 == "plain" || $2 == "rotated") { n[$2]++; if (!($2 in lo) || $3 < lo[$2]) lo[$2] = $3; if ($3 > hi[$2]) hi[$2] = $3 }
     END { for (k in n) printf "spread %-8s %9.1f - %.1f req/s over %d rounds\n", k, lo[k], hi[k], n[k] }' "$OUT/closed.txt" | sort

if [ "$BENCH" = 1 ]; then
  echo
  echo "== checkpoint and rotation benchmarks (runtime/probe)"
  nice -n 10 go test ./runtime/probe/ -run '^$' -bench 'BenchmarkCheckpoint|BenchmarkRotation' -benchmem -count 3 -benchtime 200x | tee "$OUT/bench.txt"
fi
echo "outputs: $OUT"
