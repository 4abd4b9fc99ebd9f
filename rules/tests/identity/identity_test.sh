#!/bin/bash
# identity_test.sh WRAPPED PLAIN CAPTURE
# WRAPPED: the app built through rules_capture's go_library (mode off);
# PLAIN:   the same sources built with rules_go's go_library alone;
# CAPTURE: the app's capture variant.
# The first two must be identical bytes; the capture variant must differ
# (otherwise the comparison proves nothing: the probes are not there).
set -euo pipefail
wrapped=$1 plain=$2 capture=$3
for f in "$wrapped" "$plain" "$capture"; do
  [ -s "$f" ] || { echo "FAIL: $f missing or empty"; exit 1; }
done
sum() { sha256sum "$1" | cut -d' ' -f1; }
if ! cmp -s "$wrapped" "$plain"; then
  echo "FAIL: the normal build changed: $wrapped ($(sum "$wrapped")) differs from rules_go's $plain ($(sum "$plain"))"
  exit 1
fi
echo "ok: $wrapped is byte-identical to $plain (sha256 $(sum "$plain"))"
if cmp -s "$capture" "$plain"; then
  echo "FAIL: the capture variant $capture is identical to the normal binary: no probes were inserted"
  exit 1
fi
echo "ok: the capture variant differs ($(sum "$capture"))"
