#!/bin/bash
# shop_main_job.sh - the main job of rules_capture on examples/shop:
#   1. bazel build //examples/shop:shop_capture (and the load generator);
#   2. run shop_capture under the load generator (RUNS runs of N requests,
#      seeds 1..RUNS), each run writing one event log;
#   3. collect the logs into LOGS_DIR and, with --check-in, into
#      examples/shop/testdata/capture/ (what //examples/shop:replay_tests replays);
#   4. bazel test //examples/shop:replay_tests;
#   5. print a summary: requests, events, log bytes, replay verdicts.
# Usage: rules/demo/shop_main_job.sh [--check-in]     (env: RUNS=3 N=150 LOGS_DIR=...)
set -euo pipefail
WS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$WS"
BAZEL=${BAZEL:-$WS/tools/bazel}
RUNS=${RUNS:-3}
N=${N:-150}
LOGS_DIR=${LOGS_DIR:-$(mktemp -d /tmp/shop-logs.XXXXXX)}
CHECK_IN=0
[ "${1:-}" = "--check-in" ] && CHECK_IN=1

"$BAZEL" build //examples/shop:shop_capture //examples/shop/cmd/loadgen //tool/cmd/capture
BIN=$("$BAZEL" info bazel-bin 2>/dev/null)
shop=$BIN/examples/shop/shop_capture
loadgen=$BIN/examples/shop/cmd/loadgen/loadgen_/loadgen
capture=$BIN/tool/cmd/capture/capture_/capture

mkdir -p "$LOGS_DIR"
total_requests=0
for seed in $(seq 1 "$RUNS"); do
  run=$(mktemp -d /tmp/shop-run.XXXXXX)
  CAPTURE_POLICY=block CAPTURE_DIR=$run/logs "$shop" -addr 127.0.0.1:0 -addr-file "$run/addr" -db "$run/shop.db" >"$run/shop.out" 2>&1 &
  pid=$!
  for _ in $(seq 50); do [ -s "$run/addr" ] && break; sleep 0.1; done
  [ -s "$run/addr" ] || { cat "$run/shop.out"; echo "shop_capture did not start" >&2; kill "$pid"; exit 1; }
  "$loadgen" -url "http://$(cat "$run/addr")" -n "$N" -warmup 0 -seed "$seed" -json >"$run/load.json"
  kill -TERM "$pid"; wait "$pid" || true
  log=$(ls "$run"/logs/*.arrow)
  cp "$log" "$LOGS_DIR/shop_seed$seed.arrow"
  total_requests=$((total_requests + N))
  rm -rf "$run"
done

if [ "$CHECK_IN" = 1 ]; then
  mkdir -p examples/shop/testdata/capture
  cp "$LOGS_DIR"/*.arrow examples/shop/testdata/capture/
fi

set +e
"$BAZEL" test //examples/shop:replay_tests --test_output=errors ${BAZEL_TEST_FLAGS:---nozip_undeclared_test_outputs}
rc=$?
set -e

echo
echo "== summary"
echo "requests     $total_requests ($RUNS runs x $N, seeds 1..$RUNS)"
events=0 bytes=0
for f in "$LOGS_DIR"/*.arrow; do
  e=$("$capture" stats "$f" | awk '$1 == "events" { print $2; exit }')
  b=$(stat -c %s "$f")
  events=$((events + e)); bytes=$((bytes + b))
  printf '  %-22s %7s events %9s bytes\n' "$(basename "$f")" "$e" "$b"
done
echo "events       $events"
echo "log bytes    $bytes"
echo "logs         $LOGS_DIR"
outputs=$("$BAZEL" info bazel-testlogs 2>/dev/null)/examples/shop/replay_tests/test.outputs
for r in "$outputs"/*.replay.json; do
  [ -f "$r" ] || continue
  printf '  replay %-22s %s\n' "$(basename "$r" .replay.json)" "$(sed -n 's/.*"verdict": "\(.*\)".*/\1/p' "$r")"
done
[ "$CHECK_IN" = 1 ] || echo "(replay_tests replayed the checked-in logs; --check-in replays these)"
exit $rc
