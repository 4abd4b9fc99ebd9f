#!/usr/bin/env bash
# CPU per request of examples/shop's capture variant against the plain shop,
# native builds (go build, capture build: no Bazel), closed loop.
#
#   lab/demo/shop_cpu_ab.sh [RUNS]
#
# Each run starts one server on a fresh database, drives it with the load
# generator (WARMUP + N requests, CONCURRENCY workers, SEED) and reads the
# server's utime+stime (/proc/PID/stat) and context switches (all threads'
# /proc/PID/task/*/status) before and after; then the next variant. The order
# of the variants alternates between runs (A B C, C B A, ...), so a drift of
# the machine's load does not favour one. Prints one line per server run and
# the medians, with the load average.
#
# EXTRA="name=/path/to/binary ..." adds prebuilt variants (for example a
# shop_capture built from another commit: before/after comparisons).
# OUT keeps the builds and outputs (default: a temporary directory, removed).
# Needs: go, /proc, python3 (for the medians).
set -euo pipefail
WS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RUNS=${1:-6}
N=${N:-3000}
WARMUP=${WARMUP:-200}
CONCURRENCY=${CONCURRENCY:-8}
SEED=${SEED:-1}
keep=${OUT:+1}
OUT=${OUT:-$(mktemp -d /tmp/shop-cpu-ab.XXXXXX)}
mkdir -p "$OUT"
[ -n "$keep" ] || trap 'rm -rf "$OUT"' EXIT

P=github.com/rules-capture/rules_capture/examples/shop
cd "$WS"
go build -o "$OUT/shop" ./examples/shop
go build -o "$OUT/loadgen" ./examples/shop/cmd/loadgen
go build -o "$OUT/capture" ./tool/cmd/capture
"$OUT/capture" build -root "$WS" -observe "$P/pricing,$P/tax,$P/inventory" -o "$OUT/shop_capture" ./examples/shop

variants=("shop=$OUT/shop" "shop_capture=$OUT/shop_capture")
for v in ${EXTRA:-}; do variants+=("$v"); done

ctxsw() { cat /proc/"$1"/task/*/status 2>/dev/null | awk -v k="$2" '$1 == k":" { s += $2 } END { print s + 0 }'; }

one() { # one NAME BINARY
  local name=$1 bin=$2 d
  d=$(mktemp -d "$OUT/run.XXXXXX")
  CAPTURE_DIR=$d/logs "$bin" -addr 127.0.0.1:0 -addr-file "$d/addr" -db "$d/shop.db" >"$d/server.out" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do [ -s "$d/addr" ] && break; sleep 0.1; done
  [ -s "$d/addr" ] || { cat "$d/server.out" >&2; echo "$name did not start" >&2; exit 1; }
  local u0 s0 v0 n0 u1 s1 v1 n1 load
  read -r u0 s0 < <(awk '{ print $14, $15 }' /proc/$pid/stat)
  v0=$(ctxsw $pid voluntary_ctxt_switches); n0=$(ctxsw $pid nonvoluntary_ctxt_switches)
  load=$(cut -d' ' -f1 /proc/loadavg)
  "$OUT/loadgen" -url "http://$(cat "$d/addr")" -n "$N" -warmup "$WARMUP" -concurrency "$CONCURRENCY" -seed "$SEED" -json >"$d/loadgen.json"
  read -r u1 s1 < <(awk '{ print $14, $15 }' /proc/$pid/stat)
  v1=$(ctxsw $pid voluntary_ctxt_switches); n1=$(ctxsw $pid nonvoluntary_ctxt_switches)
  kill -TERM $pid; wait $pid || true
  local hz rps bytes
  hz=$(getconf CLK_TCK)
  rps=$(python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["throughput_rps"], 1))' "$d/loadgen.json")
  bytes=$( (cat "$d"/logs/*.arrow 2>/dev/null || true) | wc -c)
  awk -v n="$name" -v u=$((u1 - u0)) -v s=$((s1 - s0)) -v hz="$hz" -v r=$((N + WARMUP)) -v v=$((v1 - v0)) -v nv=$((n1 - n0)) -v l="$load" -v rps="$rps" -v b="$bytes" \
    'BEGIN { us = 1e6 / hz / r; printf "%-14s cpu/req %6.1f us (user %5.1f sys %5.1f)  vcsw/req %5.2f ivcsw/req %5.2f  rps %s load %s log-bytes/req %.0f\n", n, (u + s) * us, u * us, s * us, v / r, nv / r, rps, l, b / r }'
  rm -rf "$d"
}

echo "== $RUNS runs of ${variants[*]%%=*}: $WARMUP + $N requests each, $CONCURRENCY workers, seed $SEED; load before $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for i in $(seq "$RUNS"); do
  order=("${variants[@]}")
  if [ $((i % 2)) = 0 ]; then
    order=(); for ((j = ${#variants[@]} - 1; j >= 0; j--)); do order+=("${variants[j]}"); done
  fi
  for v in "${order[@]}"; do one "${v%%=*}" "${v#*=}"; done
done | tee "$OUT/runs.txt"
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT/runs.txt" <<'EOF'
import re, statistics as st, sys
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\S+)\s+cpu/req\s+([\d.]+) us \(user\s+([\d.]+) sys\s+([\d.]+)\)\s+vcsw/req\s+([\d.]+) ivcsw/req\s+([\d.]+)\s+rps ([\d.]+)', line)
    if m:
        runs.setdefault(m.group(1), []).append([float(x) for x in m.groups()[1:]])
print("== medians")
for name, v in runs.items():
    c = list(zip(*v))
    print(f"{name:14s} cpu/req {st.median(c[0]):6.1f} us (user {st.median(c[1]):5.1f} sys {st.median(c[2]):5.1f})  vcsw/req {st.median(c[3]):5.2f}  rps {st.median(c[5]):7.1f}")
base = runs.get("shop")
for name, v in runs.items():
    if base is None or name == "shop":
        continue
    cpu = [b[0] / a[0] for a, b in zip(base, v)]
    rps = [b[5] / a[5] for a, b in zip(base, v)]
    print(f"{name}/shop: CPU per request ratio median {st.median(cpu):.3f} (per run {' '.join('%.2f' % x for x in cpu)}), throughput ratio median {st.median(rps):.3f}")
EOF
