#!/bin/bash
# device_scaling.sh - how the cost of recording an event scales with the cores
# appending, before and after a change to runtime/eventlog's Writer, on a
# many-core host (the device machine: 16 cores, no Go toolchain needed there).
#
# usage: lab/scripts/device_scaling.sh build BASE | run
#
#   build BASE   (here, with Go)
#       compiles the benchmark binaries of runtime/eventlog and runtime/probe
#       twice: "after" from the working tree, "before" from the commit BASE
#       (for the lock-free Append: the commit before it, the parent of
#       `git log -1 --format=%h --grep='one atomic add on the current batch'`)
#       with the working tree's runtime/eventlog/bench_test.go, so that both
#       have the same sub-benchmarks. They go to $DIR (default
#       out/device_scaling/bin, ignored by git); carry that path to the
#       device.
#   run          (on the device, from the repository root)
#       runs BenchmarkAppendCaller (runtime/eventlog) and
#       BenchmarkIncallGoroutines (runtime/probe/internal/calcbench: the probes
#       of a call with a real log) with -cpu $CPUS, and BenchmarkShopIncall
#       and BenchmarkEncoderShop with -cpu 1, before and after alternately
#       (each round runs both, so that both see the same machine), COUNT rounds, and writes before.txt,
#       after.txt and the load average and CPU count (machine.txt) to $OUT
#       (default out/device_scaling). About 5 minutes with the defaults on
#       16 cores.
#   Compare with benchstat (here):
#       go run golang.org/x/perf/cmd/benchstat@latest before.txt after.txt
#   env: DIR=out/device_scaling/bin OUT=out/device_scaling COUNT=6
#        BENCHTIME=300ms CPUS=1,2,4,8,16
# What to read: BenchmarkAppendCaller/goroutines=procs (one appending
# goroutine per P) ns/op and cpu-ns/event from -cpu 1 to the last of CPUS;
# the aim is a cost per event flat within 1.5x. goroutines=1 and
# goroutines=8 are the sub-benchmarks of the earlier measurements.
set -euo pipefail
WS=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$WS"
DIR=$(realpath -m "${DIR:-out/device_scaling/bin}") # relative to the repository root
OUT=${OUT:-out/device_scaling}
COUNT=${COUNT:-6}
BENCHTIME=${BENCHTIME:-300ms}
CPUS=${CPUS:-1,2,4,8,16}

usage() {
	sed -n '2,33p' "$0" >&2
	exit 2
}

build() {
	[ $# -eq 1 ] || usage
	local base
	base=$(git rev-parse --verify "$1^{commit}")
	mkdir -p "$DIR"
	local src
	src=$(mktemp -d)
	trap 'rm -rf "$src"' RETURN
	git archive "$base" | tar -x -C "$src"
	cp runtime/eventlog/bench_test.go "$src/runtime/eventlog/bench_test.go"
	cp runtime/probe/internal/calcbench/bench_test.go "$src/runtime/probe/internal/calcbench/bench_test.go"
	(cd "$src" && go test -c -o "$DIR/eventlog.before.test" ./runtime/eventlog &&
		go test -c -o "$DIR/probe.before.test" ./runtime/probe &&
		go test -c -o "$DIR/calcbench.before.test" ./runtime/probe/internal/calcbench)
	go test -c -o "$DIR/eventlog.after.test" ./runtime/eventlog
	go test -c -o "$DIR/probe.after.test" ./runtime/probe
	go test -c -o "$DIR/calcbench.after.test" ./runtime/probe/internal/calcbench
	echo "$base" >"$DIR/base.rev"
	git rev-parse HEAD >"$DIR/head.rev"
	git status --porcelain -- runtime/eventlog runtime/probe >"$DIR/dirty.txt"
	ls -l "$DIR"
}

run() {
	[ $# -eq 0 ] || usage
	local abs=$DIR which
	for which in before after; do
		for pkg in eventlog probe calcbench; do
			[ -x "$abs/$pkg.$which.test" ] || {
				echo "$abs/$pkg.$which.test is missing: run build first (and carry $DIR)" >&2
				exit 1
			}
		done
	done
	mkdir -p "$OUT"
	{
		echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
		echo "before: $(cat "$abs/base.rev" 2>/dev/null) after: $(cat "$abs/head.rev" 2>/dev/null)"
		echo "start: $(uptime)"
	} >"$OUT/machine.txt"
	: >"$OUT/before.txt"
	: >"$OUT/after.txt"
	local i
	for ((i = 1; i <= COUNT; i++)); do
		for which in before after; do
			# The test binaries run in their package directory (testdata).
			(cd runtime/eventlog && "$abs/eventlog.$which.test" -test.run '^$' \
				-test.bench 'BenchmarkAppendCaller' -test.benchmem -test.cpu "$CPUS" \
				-test.benchtime "$BENCHTIME" -test.count 1) >>"$OUT/$which.txt"
			(cd runtime/probe/internal/calcbench && "$abs/calcbench.$which.test" -test.run '^$' \
				-test.bench 'BenchmarkIncallGoroutines' -test.benchmem -test.cpu "$CPUS" \
				-test.benchtime "$BENCHTIME" -test.count 1) 2>/dev/null >>"$OUT/$which.txt"
			(cd runtime/probe && "$abs/probe.$which.test" -test.run '^$' \
				-test.bench 'BenchmarkShopIncall' -test.benchmem -test.cpu 1 \
				-test.benchtime "$BENCHTIME" -test.count 1) >>"$OUT/$which.txt"
			(cd runtime/eventlog && "$abs/eventlog.$which.test" -test.run '^$' \
				-test.bench 'BenchmarkEncoderShop' -test.benchmem -test.cpu 1 \
				-test.benchtime "$BENCHTIME" -test.count 1) >>"$OUT/$which.txt"
		done
		echo "round $i: $(uptime)" >>"$OUT/machine.txt"
	done
	echo "end: $(uptime)" >>"$OUT/machine.txt"
	cat "$OUT/machine.txt"
}

case "${1:-}" in
build)
	shift
	build "$@"
	;;
run)
	shift
	run "$@"
	;;
*) usage ;;
esac
