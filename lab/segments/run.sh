#!/usr/bin/env bash
# Checkpoints over real modules: each package below is the observed set in
# turn (each module's root package; where capture cannot observe or build
# that one, also a package of the module it can), its own tests are captured
# with a checkpoint at every quiescent point (CAPTURE_CHECKPOINT_EVERY=1,
# which capture test passes on to the tests), each log is replayed whole, and
# up to four segments per log (cut at the first checkpoint, the last, and two
# between) are replayed alone.
#
#   OUT=/tmp/segments lab/segments/run.sh [name...]
#
# Everything (copies of the modules, logs, segments, outputs) goes under
# $OUT; $OUT/table.md is the table of lab/segments/README.md. Names pick
# modules from the list below (default: all). Runs under `nice -n 19`.
set -euo pipefail

ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
OUT=${OUT:-/tmp/segments}
NICE=${NICE:-nice -n 19}

# name module version observed-package (versions as in lab/study's corpus)
MODULES=(
  "semver github.com/Masterminds/semver/v3 v3.4.0 github.com/Masterminds/semver/v3"
  "go-cmp github.com/google/go-cmp v0.7.0 github.com/google/go-cmp/cmp"
  "go-cmp-diff github.com/google/go-cmp v0.7.0 github.com/google/go-cmp/cmp/internal/diff"
  "pflag github.com/spf13/pflag v1.0.10 github.com/spf13/pflag"
  "golang-lru github.com/hashicorp/golang-lru/v2 v2.0.7 github.com/hashicorp/golang-lru/v2"
  "golang-lru-simplelru github.com/hashicorp/golang-lru/v2 v2.0.7 github.com/hashicorp/golang-lru/v2/simplelru"
  "golang-lru-expirable github.com/hashicorp/golang-lru/v2 v2.0.7 github.com/hashicorp/golang-lru/v2/expirable"
)

mkdir -p "$OUT"
(cd "$ROOT" && $NICE go build -o "$OUT/capture" ./tool/cmd/capture)
CAPTURE="$OUT/capture"
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD)
[ -z "$(git -C "$ROOT" status --porcelain -- tool runtime pkg rules 2>/dev/null)" ] || COMMIT="$COMMIT+modified"

# samples K..: up to four checkpoints of N, 1-based: first, last, two between.
samples() {
  local n=$1
  if [ "$n" -le 4 ]; then seq 1 "$n"; return; fi
  printf '%s\n' 1 $(( (n - 1) / 3 + 1 )) $(( 2 * (n - 1) / 3 + 1 )) "$n" | sort -n -u
}

# firsts FILE: the segment failures counted by kind: a divergence's kind
# (the first line of its report, less the sequence numbers) and the event it
# expected (kind and function), or an ERROR line's text.
firsts() {
  awk '
    /^DIVERGED /   { d = 1; next }
    d == 1         { sub(/^ *divergence at seq [0-9]+ \(stream [0-9]+\): /, ""); k = substr($0, 1, 110); d = 2; next }
    d == 2 && /^ *expected: / {
      e = ""
      if (match($0, /[A-Z]+_[A-Z]+ (\([^)]*\)\.)?[^( ]+/)) e = substr($0, RSTART, RLENGTH)
      print k "\t" e; d = 0; next }
    d == 2 && /^ *note: / { print k "\t"; d = 0; next }
    /^ERROR /      { sub(/^ERROR +[^:]+: /, ""); print substr($0, 1, 160) "\t" }
  ' "$1" | awk -F'\t' '{ if (!($1 in n)) { order[++m] = $1; ex[$1] = $2 } n[$1]++ }
    END { for (i = 1; i <= m; i++) { k = order[i]; print n[k] "\t" k (ex[k] != "" ? " (first: expected " ex[k] ")" : "") } }' |
    sort -t"$(printf '\t')" -k1,1nr | sed 's/\t/× /'
}

run_module() {
  local name=$1 mod=$2 ver=$3 pkg=$4
  local d="$OUT/$name" src
  rm -rf "$d"; mkdir -p "$d"
  src=$(cd "$OUT" && GOFLAGS=-mod=mod go mod download -json "$mod@$ver" | jq -r .Dir)
  cp -r "$src" "$d/src"; chmod -R u+w "$d/src"
  # The module's go.sum may lack its tests' dependencies: record them, and
  # put go.mod back as published.
  cp "$d/src/go.mod" "$d/go.mod.orig"
  (cd "$d/src" && $NICE go list -mod=mod -e -deps -test "$pkg" >/dev/null)
  cp "$d/go.mod.orig" "$d/src/go.mod"

  echo "== $name: capture test" >&2
  (cd "$d/src" && CAPTURE_CHECKPOINT_EVERY=1 $NICE "$CAPTURE" test -root "$ROOT" -observe "$pkg" -logs "$d/logs" "$pkg") >"$d/test.txt" 2>&1 || true
  echo "== $name: whole-log replay" >&2
  (cd "$d/src" && $NICE "$CAPTURE" replay -root "$ROOT" -observe "$pkg" "$d/logs") >"$d/whole.txt" 2>&1 || true
  $NICE "$CAPTURE" stats -json "$d/logs" >"$d/stats.json" 2>"$d/stats.err" || true

  echo "== $name: cut" >&2
  mkdir -p "$d/seg"
  : >"$d/cut.txt"
  # (no logs when capture test rejected the package up front)
  { [ ! -d "$d/logs" ] || find "$d/logs" -name '*.arrow' | sort; } | while read -r log; do
    local n base
    n=$($NICE "$CAPTURE" stats -json "$log" | jq -r '.checkpoints // 0')
    base=$(basename "$log" .arrow)
    for k in $(samples "$n"); do
      $NICE "$CAPTURE" cut -from "checkpoint:$k" -o "$d/seg/$base.cp$k.arrow" "$log" >>"$d/cut.txt" 2>&1 ||
        echo "CUTFAIL $log checkpoint:$k" >>"$d/cut.txt"
    done
  done
  echo "== $name: segment replay" >&2
  if ls "$d/seg"/*.arrow >/dev/null 2>&1; then
    (cd "$d/src" && $NICE "$CAPTURE" replay -root "$ROOT" -observe "$pkg" "$d/seg") >"$d/seg.txt" 2>&1 || true
  else
    : >"$d/seg.txt"
  fi
}

row() {
  local name=$1 mod=$2 ver=$3 pkg=$4
  local d="$OUT/$name"
  local logs wpass wtot taken refused reasons sreplayed spassed sfail
  logs=$(find "$d/logs" -name '*.arrow' 2>/dev/null | wc -l)
  wtot=$(grep -cE '^(PASS|DIVERGED|ERROR) ' "$d/whole.txt" || true)
  wpass=$(grep -c '^PASS ' "$d/whole.txt" || true)
  taken=$(jq -s '[.[].checkpoints // 0] | add // 0' "$d/stats.json")
  refused=$(jq -s '[.[].checkpoints_refused // [] | .[].count] | add // 0' "$d/stats.json")
  reasons=$(jq -rs '[.[].checkpoints_refused // [] | .[]] | map(.reason |= sub("^[0-9]+ "; "N ")) | group_by(.reason) | sort_by(-(map(.count) | add)) | map("\(map(.count) | add)× \(.[0].reason)") | join("; ")' "$d/stats.json")
  sreplayed=$(grep -cE '^(PASS|DIVERGED|ERROR) ' "$d/seg.txt" || true)
  spassed=$(grep -c '^PASS ' "$d/seg.txt" || true)
  sfail=$(firsts "$d/seg.txt" | paste -sd';' - | sed 's/;/; /g')
  if [ "$logs" -eq 0 ]; then
    # capture test ran no test: say why (constructs it rejects, or a
    # compiler error in the instrumented package).
    if grep -q 'is not supported in an observed package' "$d/test.txt"; then
      sfail="no logs: $(grep -c 'is not supported in an observed package' "$d/test.txt") constructs rejected up front, first: $(grep -m1 -o 'a method call.*\|an outcall.*\|reflect.Value.Call.*' "$d/test.txt" | cut -c1-160)"
    else
      sfail="no logs: the instrumented package does not build: $(grep -m1 '\.go:[0-9]*:' "$d/test.txt" | cut -c1-200)"
    fi
  fi
  [ "$pkg" = "$mod" ] || mod="$mod (${pkg#"$mod/"})"
  local whole="$wpass / $wtot"
  [ "$logs" -ne 0 ] || whole="-"
  echo "| $mod | $ver | $logs | $whole | $taken | $refused${reasons:+: $reasons} | $sreplayed | $spassed | ${sfail:-none} |"
}

want=("$@")
for m in "${MODULES[@]}"; do
  set -- $m
  if [ ${#want[@]} -eq 0 ] || printf '%s\n' "${want[@]}" | grep -qx "$1"; then
    run_module "$@"
  fi
done

# The table counts with grep and find, which fail where there is nothing to
# count (a package rejected up front has no logs).
set +e +o pipefail
{
  echo "rules_capture $COMMIT, $(go version | cut -d' ' -f3), $(date -u +%Y-%m-%d)"
  echo
  echo "| module | version | logs | whole-log pass | checkpoints taken | refused (by reason) | segments replayed | segments passed | segment failures (first message, count) |"
  echo "|---|---|---:|---:|---:|---|---:|---:|---|"
  for m in "${MODULES[@]}"; do
    set -- $m
    [ -d "$OUT/$1" ] && row "$@"
  done
} >"$OUT/table.md"
cat "$OUT/table.md"
