#!/bin/bash
# umount.sh - unmount everything below the offline Bazel root (after 'tools/bazel shutdown'
# in every workspace that used it). Needed before deleting $RULES_CAPTURE_BASE.
set -euo pipefail
ROOT=${RULES_CAPTURE_BASE:-/var/cache/rules_capture}/root
{ findmnt -rn -o TARGET | grep -E "^$ROOT(/|\$)" || true; } | sort -r |
  while read -r m; do umount -l "$m" || true; done
if findmnt -rn -o TARGET | grep -q "^$ROOT/"; then echo "mounts remain below $ROOT" >&2; exit 1; fi
