#!/bin/bash
# shop_overhead.sh - the capture overhead of examples/shop, measured in one run:
#   1. bazel build //examples/shop:shop //examples/shop:shop_capture and the load generator;
#   2. start both servers (fresh databases; shop_capture logs to a temporary directory);
#   3. closed loop (the load generator's default: 8 workers, each sends its next
#      request when the previous one is answered, i.e. the saturated throughput):
#      `loadgen -compare` runs the same seeded workload against both in alternating
#      rounds (A B, B A, ...) and prints medians and the ratios shop_capture/shop;
#   4. open loop at RATE_FRACTION of shop's median closed-loop throughput (below
#      saturation, so the throughput ratio is ~1 by construction and the latency
#      ratios show the cost), same alternation;
#   5. stop shop_capture and print what it logged: requests, events, bytes, per request.
# Besides the ratio of the medians it prints the median of each round's own ratio
# with its distribution-free confidence interval, and each server's CPU time per
# request in every closed-loop round (/proc/PID/stat, `loadgen -pids`) with the
# paired CPU ratio and its interval: unlike throughput, it does not depend on how
# the two servers and the load generator share the machine, nor on the disk.
# Both servers run with GODEBUG=gctrace=1 (`loadgen -gctrace`): each round also
# reports each server's GC CPU per request and collections per 1,000 requests,
# and the paired CPU ratio without the GC. The GC settings are the same for both:
#   GC=default  the caller's GOGC and GOMEMLIMIT if set, else the runtime's defaults
#               (GOGC=100): the heap goal follows each server's live heap, so the
#               capture's buffers make shop_capture collect less often than shop;
#   GC=equal    GOGC=off GOMEMLIMIT=$GC_LIMIT (default 256MiB) for both: a server
#               collects only when its memory reaches the limit, so what it holds
#               moves its collections by (held)/(limit), not in proportion.
# Usage: lab/demo/shop_overhead.sh
#   env: ROUNDS=9 N=3000 WARMUP=300 CONCURRENCY=8 SEED=1 RATE_FRACTION=0.5 OUT=dir
#        OPEN_N=N: measured requests per open-loop run (it runs at half the rate, so
#        it takes twice as long as a closed-loop run of the same N)
#        GC=default|equal, GC_LIMIT=256MiB, GOGC, GOMEMLIMIT: the servers' GC (above)
#        BIN=dir: a bazel-bin with the four binaries already built (no build)
# Numbers depend on the machine and on everything else running on it: the script
# prints the load average before and after; compare ratios, not absolute rates.
set -euo pipefail
WS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$WS"
BAZEL=${BAZEL:-$WS/tools/bazel}
ROUNDS=${ROUNDS:-9}
N=${N:-3000}
WARMUP=${WARMUP:-300}
CONCURRENCY=${CONCURRENCY:-8}
SEED=${SEED:-1}
RATE_FRACTION=${RATE_FRACTION:-0.5}
OPEN_N=${OPEN_N:-$N}
OUT=${OUT:-$(mktemp -d /tmp/shop-overhead.XXXXXX)}
mkdir -p "$OUT"
GC=${GC:-default}
GC_LIMIT=${GC_LIMIT:-256MiB}
# The servers' GC settings; nothing else here (Bazel, the load generator) gets them.
case $GC in
default) server_gc=(${GOGC:+GOGC=$GOGC} ${GOMEMLIMIT:+GOMEMLIMIT=$GOMEMLIMIT}) ;;
equal) server_gc=(GOGC=off GOMEMLIMIT="$GC_LIMIT") ;;
*) echo "GC=$GC: want default or equal" >&2; exit 2 ;;
esac
unset GOGC GOMEMLIMIT
server_env=("${server_gc[@]}" GODEBUG="${GODEBUG:+$GODEBUG,}gctrace=1")

if [ -z "${BIN:-}" ]; then
  "$BAZEL" build //examples/shop:shop //examples/shop:shop_capture //examples/shop/cmd/loadgen //tool/cmd/capture
  BIN=$("$BAZEL" info bazel-bin 2>/dev/null)
fi
loadgen=$BIN/examples/shop/cmd/loadgen/loadgen_/loadgen
capture=$BIN/tool/cmd/capture/capture_/capture

# start runs in a command substitution (a subshell): the servers' pids are in files.
cleanup() {
  local f
  for f in "$OUT"/shop/pid "$OUT"/shop_capture/pid; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
}
trap cleanup EXIT

start() { # start NAME BINARY: runs it on a free port, prints its URL
  local name=$1 bin=$2 dir=$OUT/$1
  mkdir -p "$dir"
  env "${server_env[@]}" CAPTURE_DIR="$dir/logs" "$bin" -addr 127.0.0.1:0 -addr-file "$dir/addr" -db "$dir/shop.db" >"$dir/server.out" 2>&1 &
  echo $! >"$dir/pid"
  for _ in $(seq 100); do [ -s "$dir/addr" ] && break; sleep 0.1; done
  [ -s "$dir/addr" ] || { cat "$dir/server.out" >&2; echo "$name did not start" >&2; exit 1; }
  echo "http://$(cat "$dir/addr")"
}
shop_url=$(start shop "$BIN/examples/shop/shop_/shop")
capture_url=$(start shop_capture "$BIN/examples/shop/shop_capture")
targets="shop=$shop_url,shop_capture=$capture_url"
common=(-compare "$targets" -pids "$(cat "$OUT/shop/pid"),$(cat "$OUT/shop_capture/pid")"
  -gctrace "$OUT/shop/server.out,$OUT/shop_capture/server.out"
  -rounds "$ROUNDS" -n "$N" -warmup "$WARMUP" -concurrency "$CONCURRENCY" -seed "$SEED")

echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "== GC=$GC: both servers run with ${server_env[*]}"
echo
echo "== closed loop (loadgen's default rate: as fast as each server answers)"
"$loadgen" "${common[@]}" | tee "$OUT/closed.txt"
shop_rps=$(awk '$1 == "median" && $2 == "shop" { print $3 }' "$OUT/closed.txt")
rate=$(awk -v t="$shop_rps" -v f="$RATE_FRACTION" 'BEGIN { printf "%d", t * f }')
echo
echo "== open loop at $rate req/s ($RATE_FRACTION of shop's median closed-loop throughput)"
"$loadgen" "${common[@]}" -n "$OPEN_N" -rate "$rate" | tee "$OUT/open.txt"
echo
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# SIGTERM: shop_capture shuts down and closes its log; wait until it has exited.
pid=$(cat "$OUT/shop_capture/pid")
kill -TERM "$pid"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
log=$(ls "$OUT"/shop_capture/logs/*.arrow)
# Requests shop_capture answered: per run the catalogue fetch, the warm-up and the
# measured requests; both comparisons ran ROUNDS runs against it.
requests=$((ROUNDS * (2 + 2 * WARMUP + N + OPEN_N)))
events=$("$capture" stats "$log" | awk '$1 == "events" { print $2; exit }')
bytes=$(stat -c %s "$log")
echo
echo "== what shop_capture logged"
awk -v r="$requests" -v e="$events" -v b="$bytes" 'BEGIN {
  printf "requests   %d\nevents     %d (%.1f per request)\nlog bytes  %d (%.1f per request, %.1f per event)\n", r, e, e / r, b, b / r, b / e }'
echo "log        $log"
echo
echo "== summary (shop_capture / shop, medians of $ROUNDS rounds; GC=$GC: ${server_gc[*]:-runtime defaults})"
awk '$1 == "ratio" { printf "closed loop  throughput %.3f  p50 %.3f  p99 %.3f\n", $3, $4, $5 }' "$OUT/closed.txt"
awk '$1 == "paired" && $2 != "throughput" && $2 != "cpu" { printf "  paired     throughput %.3f  p50 %.3f  p99 %.3f  (median of the rounds\x27 own ratios)\n", $3, $4, $5 }
     /^paired throughput ratio/ { sub(/^paired throughput ratio [^,]*, /, ""); print "  paired throughput ratio interval: " $0 }
     /^paired cpu per request ratio [0-9]/ { sub(/^paired /, ""); print "  " $0 }' "$OUT/closed.txt"
awk '$1 == "median" { cpu[$2] = $6 } END { if (cpu["shop"] > 0) printf "  cpu per request (median of the rounds): shop %.1f us, shop_capture %.1f us\n", cpu["shop"], cpu["shop_capture"] }' "$OUT/closed.txt"
awk '/^paired cpu per request ratio excluding gc/ { sub(/^paired /, ""); sub(/ \(less the .*/, ""); print "  " $0 }
     /^gc over all rounds:/ || /^warning:/ { print "  " $0 }' "$OUT/closed.txt"
awk -v r="$rate" '$1 == "ratio" { printf "open loop    throughput %.3f  p50 %.3f  p99 %.3f  (at %d req/s)\n", $3, $4, $5, r }' "$OUT/open.txt"
