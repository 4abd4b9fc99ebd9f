#!/usr/bin/env bash
# Interop test: logs written by our writer (capture-time IPC stream, zstd,
# dictionary deltas; and uncompressed, as the writer writes record batches
# when it is behind) and by Compact (IPC file) must read correctly with an
# independent Arrow implementation, apache-arrow for JavaScript.
#
# Needs go, node (>= 18) and npm. The npm packages (pinned by
# package-lock.json) are installed into a cache directory outside the
# repository: $RULES_CAPTURE_NPM_CACHE, default ~/.cache/rules_capture/interop-npm.
# Exit status 0 on success; prints what it checked.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${RULES_CAPTURE_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_capture/interop-npm}"
lockhash="$(sha256sum "$here/package-lock.json" | cut -c1-16)"
modules="$cache/$lockhash"

for tool in go node npm; do
  command -v "$tool" >/dev/null || { echo "interop: $tool not found on PATH" >&2; exit 1; }
done

if [ ! -f "$modules/.installed" ]; then
  mkdir -p "$modules"
  cp "$here/package.json" "$here/package-lock.json" "$modules/"
  (cd "$modules" && npm ci --no-audit --no-fund --loglevel=error)
  touch "$modules/.installed"
fi
# Node resolves imports relative to the script, so run a copy next to node_modules.
cp "$here/read.mjs" "$modules/read.mjs"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$here" && go run ./writelog "$work")

node "$modules/read.mjs" "$work/capture.arrows" "$work/compacted.arrow" "$work/uncompressed.arrows" > "$work/summary.jsonl"

# Check each summary with node (no jq needed): 5000 rows, the twelve kinds in
# turn (417 or 416 of each), the site example.com/shop/pricing.Quote 500
# times, the writer's format version (eventlog.FormatVersion, read from
# schema.go so that a format bump needs no edit here).
want_version="$(sed -n 's/^const FormatVersion = \([0-9][0-9]*\)$/\1/p' "$here/../schema.go")"
[ -n "$want_version" ] || { echo "interop: no 'const FormatVersion = N' in runtime/eventlog/schema.go" >&2; exit 1; }
node - "$work/summary.jsonl" "$want_version" <<'JS'
const fs = require('node:fs');
const lines = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n');
const kinds = ['CALL_IN','RETURN_IN','PANIC_OUT','CALL_OUT','RETURN_OUT','PANIC_IN','READ_OUT','WRITE_OUT','WRITE_IN','GO','CHAN_TURN','LOCK_TURN'];
let failed = false;
if (lines.length !== 3) { console.error(`interop: expected 3 summaries, got ${lines.length}`); process.exit(1); }
for (const line of lines) {
  const s = JSON.parse(line);
  const errs = [];
  if (s.rows !== 5000) errs.push(`rows ${s.rows}, want 5000`);
  kinds.forEach((k, j) => {
    const want = Math.floor(5000 / kinds.length) + (j < 5000 % kinds.length ? 1 : 0);
    if (s.kinds[k] !== want) errs.push(`kind ${k}: ${s.kinds[k]}, want ${want}`);
  });
  if (Object.keys(s.kinds).length !== kinds.length) errs.push(`kinds ${Object.keys(s.kinds)}`);
  if (s.sites['example.com/shop/pricing.Quote'] !== 500) errs.push(`site pricing.Quote: ${s.sites['example.com/shop/pricing.Quote']}, want 500`);
  if (s.format_version !== process.argv[3]) errs.push(`format version ${s.format_version}, want ${process.argv[3]}`);
  if (!String(s.status).startsWith('state=done events=00000000000000005000')) errs.push(`status ${s.status}`);
  if (errs.length) { failed = true; console.error(`interop: ${s.path}: ${errs.join('; ')}`); }
  else console.log(`interop: ok: ${s.path.split('/').pop()}: ${s.rows} rows, ${Object.keys(s.kinds).length} kinds, ${Object.keys(s.sites).length} sites, columns ${s.columns.join(' ')}`);
}
process.exit(failed ? 1 : 0);
JS
