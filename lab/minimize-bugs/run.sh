#!/usr/bin/env bash
# Reproduces three real bugs from the history of Go modules and minimizes
# each failing log with `capture minimize` (README.md has the table this
# prints and what each bug is). For each bug it takes the buggy and the
# fixed version from the Go module proxy, adds the workload test under
# testdata/<bug>/ to both, captures the workload, minimizes the log, copies
# the generated test into both trees, and runs it there: it must fail on
# the buggy version and pass on the fixed one.
#
#   lab/minimize-bugs/run.sh [WORK]
#
# WORK (default: a fresh temporary folder) receives the module trees, the
# logs and capture's output. $CAPTURE names a capture binary to use (default:
# one built from this tree into WORK); $CAPTURE_ROOT the rules_capture tree
# whose runtime the instrumented builds compile (default: this tree). The
# first run needs the module proxy; later ones find the modules in the
# module cache.
set -euo pipefail

lab=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$lab/../.." && pwd)
work=${1:-$(mktemp -d -t minimize-bugs.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
export CAPTURE_ROOT=${CAPTURE_ROOT:-$repo}
if [ -z "${CAPTURE:-}" ]; then
	(cd "$repo" && go build -o "$work/capture" ./tool/cmd/capture)
	CAPTURE=$work/capture
fi
export CAPTURE

rows=()
failed=0

# tree MODULE VERSION DIR: a writable copy of MODULE@VERSION at DIR, its
# dependencies downloaded.
tree() {
	local src
	src=$(go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -n "$src" ] || { echo "go mod download $1@$2 gave no directory" >&2; return 1; }
	rm -rf "$3"
	cp -r "$src" "$3"
	chmod -R u+w "$3"
	(cd "$3" && go mod download && go list -mod=mod -deps -test ./... >/dev/null)
}

# bug NAME MODULE BUGGY FIXED PKGDIR TEST MODE
#   PKGDIR: the observed package's folder in the module ("." for the root);
#   TEST: the workload's test function (testdata/NAME/workload_test.go);
#   MODE: "panic" captures the buggy version, whose run panics, and
#   minimizes against that same code (the recorded panic is the failure);
#   "regression" captures the fixed version and minimizes against the buggy
#   one, with the fixed one as baseline (the divergence is the bug).
bug() {
	local name=$1 mod=$2 buggy=$3 fixed=$4 dir=$5 test=$6 mode=$7
	local w=$work/$name pkg=$2
	[ "$dir" = . ] || pkg=$mod/$dir
	echo "== $name: $mod $buggy (buggy) -> $fixed (fixed)" >&2
	mkdir -p "$w"
	tree "$mod" "$buggy" "$w/buggy"
	tree "$mod" "$fixed" "$w/fixed"
	cp "$lab/testdata/$name/workload_test.go" "$w/buggy/$dir/"
	cp "$lab/testdata/$name/workload_test.go" "$w/fixed/$dir/"
	local from=fixed
	[ "$mode" = panic ] && from=buggy
	rm -rf "$w/logs" "$w/out"
	(cd "$w/$from" && "$CAPTURE" test -observe "$pkg" -logs "$w/logs" -run "^$test\$" "./$dir") >"$w/capture.txt" 2>&1 || [ "$mode" = panic ]
	local log
	log=$(find "$w/logs" -name "$test.arrow")
	[ -n "$log" ] || { echo "no log of $test:" >&2; cat "$w/capture.txt" >&2; return 1; }
	local base=()
	[ "$mode" = regression ] && base=(-baseline "$w/fixed")
	(cd "$w/buggy" && "$CAPTURE" minimize -observe "$pkg" "${base[@]}" -o "$w/out" "$log") >"$w/minimize.txt" 2>"$w/progress.txt" || {
		cat "$w/progress.txt" "$w/minimize.txt" >&2
		return 1
	}
	cat "$w/minimize.txt" >&2
	# "LOG: 903 -> 2 incalls, 2732 -> 4 events, 13 replays, 170ms"
	local nums repro verdicts=()
	nums=$(sed -n 's/^.*: \([0-9]*\) -> \([0-9]*\) incalls, \([0-9]*\) -> \([0-9]*\) events, \([0-9]*\) replays, \(.*\)$/\1 → \2 | \3 → \4 | \5 | \6/p' "$w/minimize.txt")
	repro=$(sed -n 's|^wrote .*/testdata/repro/\(.*\)\.arrow$|\1|p' "$w/minimize.txt")
	for v in buggy fixed; do
		cp -r "$w/out/." "$w/$v/$dir/"
		if (cd "$w/$v/$dir" && go test -count=1 -run "^$repro\$" .) >"$w/repro-$v.txt" 2>&1; then
			verdicts+=(passes)
		else
			verdicts+=(fails)
		fi
	done
	echo "   $repro: ${verdicts[0]} on $buggy, ${verdicts[1]} on $fixed" >&2
	if [ "${verdicts[0]}" != fails ] || [ "${verdicts[1]}" != passes ]; then
		echo "   want: fails on the buggy version, passes on the fixed one ($w/repro-*.txt)" >&2
		failed=1
	fi
	rows+=("| $name | \`$mod\` $buggy → $fixed | $nums | \`$repro\` ${verdicts[0]} on $buggy, ${verdicts[1]} on $fixed |")
}

# gjson issue 192 (CVE-2020-35380): Get reads past the end of a path whose
# modifier argument opens a quote it never closes, and panics; reached only
# through a modifier the service registered with AddModifier at startup.
bug gjson github.com/tidwall/gjson v1.6.3 v1.6.4 . TestQueryService panic
# semver issue 181: ^0.0.3 matches 0.1.3.
bug semver github.com/Masterminds/semver/v3 v3.1.1 v3.2.0 . TestResolve regression
# go-diff v1.2.0: DiffLinesToRunes numbers the lines of the two texts apart,
# so a line diff finds no line in common.
bug godiff github.com/sergi/go-diff v1.2.0 v1.3.1 diffmatchpatch TestSettingsHistory regression

echo
echo "| real bug | module, buggy → fixed | incalls before → after | events before → after | replays | minimize time | generated test |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $failed
