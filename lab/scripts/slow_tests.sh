#!/bin/bash
# Cost of the slowest captured tests of the wide corpus (lab/wide-corpus.md,
# "The slowest captured tests"): each test's CPU time without capture and
# under capture by two builds of the capture tool (before and after a
# change), in interleaved rounds, with the log's size at capture test's
# default cap (256MiB). CPU time (user + system), not wall time: on a
# shared machine a process's wall time says more about its neighbours.
#
#   lab/scripts/slow_tests.sh BEFORE_CAPTURE AFTER_CAPTURE [ROUNDS] > times.tsv
#
# BEFORE_CAPTURE and AFTER_CAPTURE are capture binaries built from the two
# trees (go build -o ... ./tool/cmd/capture in each); each instruments the
# tests with its own tree's runtime. Writes one line per run: round, name,
# build (plain, before, after), wall s, user s, system s, log bytes.
set -euo pipefail
before=$(realpath "$1") after=$(realpath "$2") rounds=${3:-3}
work=${SLOW_TESTS_WORK:-$(mktemp -d)}
mkdir -p "$work/bin" "$work/logs"

# name, module@version, observed package, test package, test
tests=(
	"ulid github.com/oklog/ulid/v2@v2.1.2 github.com/oklog/ulid/v2 github.com/oklog/ulid/v2 TestMonotonic"
	"runewidth github.com/mattn/go-runewidth@v0.0.31 github.com/mattn/go-runewidth github.com/mattn/go-runewidth TestWrapMatchesClusterLoop"
	"gjson github.com/tidwall/gjson@v1.20.2 github.com/tidwall/gjson github.com/tidwall/gjson TestRandomData"
	"bitset github.com/bits-and-blooms/bitset@v1.29.0 github.com/bits-and-blooms/bitset github.com/bits-and-blooms/bitset TestSetRange"
	"sjson github.com/tidwall/sjson@v1.2.9 github.com/tidwall/sjson github.com/tidwall/sjson TestRandomData"
	"goldmark github.com/yuin/goldmark@v1.8.7 github.com/yuin/goldmark/util github.com/yuin/goldmark TestManyCommentPerformance"
)

for t in "${tests[@]}"; do
	read -r name mod obs pkg test <<<"$t"
	src="$work/src/$name"
	if [ ! -d "$src" ]; then
		dir=$(go mod download -json "$mod" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
		mkdir -p "$work/src" && cp -r "$dir" "$src" && chmod -R u+w "$src"
		(cd "$src" && go mod tidy >/dev/null 2>&1 || true)
	fi
	(cd "$src" && go test -c -o "$work/bin/$name.plain.test" "$pkg")
	for b in before after; do
		tool=$before
		[ "$b" = after ] && tool=$after
		rm -rf "$work/keep" "$work/logs/cap"
		(cd "$src" && "$tool" test -observe "$obs" -logs "$work/logs/cap" -keep-binaries "$work/keep" -run "^$test\$" "$pkg" >/dev/null 2>&1 || true)
		cp "$work/keep/$(echo "$pkg" | tr / _).test" "$work/bin/$name.$b.test"
	done
done

for r in $(seq "$rounds"); do
	for t in "${tests[@]}"; do
		read -r name mod obs pkg test <<<"$t"
		for b in plain before after; do
			rm -f "$work/logs/run.arrow"
			env=()
			[ "$b" != plain ] && env=(CAPTURE_LOG="$work/logs/run.arrow" CAPTURE_POLICY=block CAPTURE_MAX_BYTES=256MiB)
			/usr/bin/time -f "%e %U %S" -o "$work/time" env "${env[@]}" "$work/bin/$name.$b.test" -test.run "^$test\$" -test.count=1 >/dev/null 2>&1 || true
			size=$(stat -c %s "$work/logs/run.arrow" 2>/dev/null || echo 0)
			printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$name" "$b" "$(tail -1 "$work/time" | tr ' ' '\t')" "$size"
		done
	done
done
