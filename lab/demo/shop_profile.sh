#!/usr/bin/env bash
# Where shop_capture's CPU per request goes, in place: the capture binary of
# examples/shop (native build, as in shop_cpu_ab.sh) under the closed-loop load
# generator, sampled by perf. Each sample is charged to the innermost frame
# that has an owner (the log writer, zstd, the probes, value encoding, the
# shop, bbolt, net/http, encoding/json, the scheduler, ...), skipping runtime
# and kernel frames, so that a probe's allocation counts as the probe's and a
# wrapped function's own work as the shop's. Prints microseconds per request
# per owner (medians over RUNS runs) and the capture's hottest leaf functions.
#
#   lab/demo/shop_profile.sh [RUNS]          # default 3
#   BINS="base=/path/to/shop_capture new=/other/shop_capture" lab/demo/shop_profile.sh 4
#                                              # prebuilt variants, alternating (A B, B A, ...)
#
# The capture's own cost is the sum of the writer, zstd, probe and value rows;
# unlike the end-to-end CPU ratio it does not move with the disk's fdatasync
# times or the scheduler, so it resolves changes of a few microseconds per
# request on a loaded machine. perf's sampling adds its own overhead: compare
# runs of this script with each other, not with shop_cpu_ab.sh.
# Needs: go, perf (linux-perf), python3.
set -euo pipefail
WS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RUNS=${1:-3}
N=${N:-6000}
WARMUP=${WARMUP:-200}
CONCURRENCY=${CONCURRENCY:-8}
FREQ=${FREQ:-4000}
keep=${OUT:+1}
OUT=${OUT:-$(mktemp -d /tmp/shop-profile.XXXXXX)}
mkdir -p "$OUT"
[ -n "$keep" ] || trap 'rm -rf "$OUT"' EXIT
command -v perf >/dev/null || { echo "shop_profile.sh: needs perf (apt-get install linux-perf)" >&2; exit 1; }

P=github.com/rules-capture/rules_capture/examples/shop
cd "$WS"
go build -o "$OUT/loadgen" ./examples/shop/cmd/loadgen
if [ -z "${BINS:-}" ]; then
  go build -o "$OUT/capture" ./tool/cmd/capture
  "$OUT/capture" build -root "$WS" -observe "$P/pricing,$P/tax,$P/inventory" -o "$OUT/shop_capture" ./examples/shop
  BINS="shop_capture=$OUT/shop_capture"
fi
read -r -a variants <<<"$BINS"

echo "== $RUNS runs of ${variants[*]%%=*} under perf -F $FREQ: $WARMUP + $N requests each, $CONCURRENCY workers; load before $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for i in $(seq "$RUNS"); do
 order=("${variants[@]}")
 if [ $((i % 2)) = 0 ]; then
   order=(); for ((j = ${#variants[@]} - 1; j >= 0; j--)); do order+=("${variants[j]}"); done
 fi
 for v in "${order[@]}"; do
  name=${v%%=*} BIN=${v#*=}
  d=$OUT/$name.run$i
  mkdir -p "$d"
  CAPTURE_DIR=$d/logs "$BIN" -addr 127.0.0.1:0 -addr-file "$d/addr" -db "$d/shop.db" >"$d/server.out" 2>&1 &
  pid=$!
  for _ in $(seq 100); do [ -s "$d/addr" ] && break; sleep 0.1; done
  [ -s "$d/addr" ] || { cat "$d/server.out" >&2; echo "the server did not start" >&2; exit 1; }
  perf record -q -F "$FREQ" --call-graph fp -p "$pid" -o "$d/perf.data" 2>/dev/null &
  perfpid=$!
  sleep 0.5
  "$OUT/loadgen" -url "http://$(cat "$d/addr")" -n "$N" -warmup "$WARMUP" -concurrency "$CONCURRENCY" -seed 1 >/dev/null
  kill -INT $perfpid; wait $perfpid || true
  kill -TERM $pid; wait $pid || true
  perf script -i "$d/perf.data" -F ip,sym 2>/dev/null >"$d/stacks.txt"
  rm -f "$d/perf.data"
 done
done
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for v in "${variants[@]}"; do
python3 - "$OUT" "$RUNS" "$((N + WARMUP))" "$FREQ" "${v%%=*}" <<'PY'
import collections, statistics, sys
out, runs, requests, freq, variant = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
M = 'github.com/rules-capture/rules_capture/'
OWNERS = [  # first match wins; a frame with no owner (runtime, kernel, reflect, sync) is skipped
    (M + 'runtime/eventlog', 'writer'), ('github.com/klauspost/compress', 'zstd'),
    (M + 'runtime/probe', 'probe'), (M + 'runtime/value', 'value'),
    (M + 'examples/', 'shop'), ('go.etcd.io/bbolt', 'bbolt'), ('net/http', 'net/http'),
    ('encoding/json', 'encoding/json'), ('net.', 'net'), ('internal/poll', 'net'),
    ('runtime.gcBgMarkWorker', 'gc'), ('runtime.bgsweep', 'gc'), ('runtime.bgscavenge', 'gc'),
    ('runtime.sysmon', 'sysmon'), ('runtime.schedule', 'scheduler'), ('runtime.mcall', 'scheduler'),
    ('runtime.mstart', 'scheduler'), ('main.', 'shop'),
]
CAPTURE = ('writer', 'zstd', 'probe', 'value')

def owner(frame):
    name = frame.split('+')[0]
    for prefix, who in OWNERS:
        if name.startswith(prefix) or ('(*' + prefix) in name:
            return who
    return None

per_run, leaves = [], collections.Counter()
for i in range(1, runs + 1):
    count = collections.Counter()
    for sample in open(f'{out}/{variant}.run{i}/stacks.txt').read().split('\n\n'):
        frames = [l.split(None, 1)[1] for l in sample.strip().split('\n') if len(l.split(None, 1)) == 2]
        if not frames:
            continue
        who = next((w for w in map(owner, frames) if w), 'other')
        count[who] += 1
        if who in CAPTURE:
            leaves[(who, frames[0].split('+')[0])] += 1
    per_run.append({k: v / freq * 1e6 / requests for k, v in count.items()})
names = sorted({k for r in per_run for k in r}, key=lambda k: -statistics.median(r.get(k, 0) for r in per_run))
print(f"== {variant}: microseconds of CPU per request by owner (median of {runs}; per run)")
for k in names:
    v = [r.get(k, 0) for r in per_run]
    print(f"  {k:14s} {statistics.median(v):7.1f}   {' '.join('%.1f' % x for x in v)}")
cap = [sum(r.get(k, 0) for k in CAPTURE) for r in per_run]
tot = [sum(r.values()) for r in per_run]
print(f"  {'capture total':14s} {statistics.median(cap):7.1f}   {' '.join('%.1f' % x for x in cap)}   (writer+zstd+probe+value)")
print(f"  {'all':14s} {statistics.median(tot):7.1f}   {' '.join('%.1f' % x for x in tot)}")
print(f"== {variant}: the capture's hottest leaf functions (us per request, all runs)")
for (who, fn), v in leaves.most_common(25):
    print(f"  {v / freq * 1e6 / requests / runs:6.2f}  {who:7s} {fn}")
PY
done
