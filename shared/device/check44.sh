#!/bin/bash
# Session 44: session 43's audit checks (check43.sh) and radix_filter's four new GPU tests in one call, so that a
# machine that is hard to get does the most per start (carry .carry/dsl):
#   bash shared/device/run.sh bash shared/device/check44.sh
set -u
start=$(date +%s)
bash "$(dirname "$0")/check43.sh"
left=$((570 - $(date +%s) + start))
echo "=== radix_filter's new long-row tests, ${left}s left ($(date +%T))"
[ "$left" -gt 30 ] && timeout "$left" python3 -m pytest -q -p no:cacheprovider -m gpu -k \
  "unaligned_long or constant_long or next_n_ratio or signed_zero_at_kth" \
  packages/topk-radix-filter/tests/test_conformance.py > "$OUT/pytest-rf-new.log" 2>&1
echo "=== rc $?"; tail -5 "$OUT/pytest-rf-new.log"
echo "=== done ($(date +%T))"
