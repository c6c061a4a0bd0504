#!/bin/bash
# Dev only, one device call (carry .carry/dsl), ~120 s: radix's push0 (pass 0's group sums pushed to every
# CTA before its cluster barrier, so the find's first hop reads C local words instead of C remote ones).
#  (a) clocks (thread 0) at 1x128K and 8x128K, now vs q.
#  (b) A/B in one process, two alternating rounds, each checked exact.
#  (c) GPU tests: test_push0.
#   bash shared/device/run.sh bash shared/device/radix13c.sh
set -u
ALTS=${RADIX_ALTS:-"q:push0=1"}
echo "=== clocks ($(date +%T))"
RADIX_ALTS=$ALTS RADIX_STAMP_CELLS=1x128,8x128 STAMPS=1 SWEEP=0 timeout 60 python3 shared/device/radix_iter.py
echo "=== A/B ($(date +%T))"
RADIX_ALTS=$ALTS RADIX_CELLS=${RADIX_CELLS:-"1x128,1x32,8x32,8x128,32x128,32x32,1x256,128x32"} STAMPS=0 \
  timeout ${1:-100} python3 shared/device/radix_iter.py
echo "=== tests ($(date +%T))"
timeout ${2:-70} python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix -k "push0" \
  > "$OUT/pytest-radix13c.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-radix13c.log" | tail -2; grep -E "^(FAILED|ERROR)|Error" "$OUT/pytest-radix13c.log" | head -8
echo "=== done ($(date +%T))"
