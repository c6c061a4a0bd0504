#!/bin/bash
# Dev only, one device call (carry .carry/dsl), ~130 s: radix's skipw (a warp skips a 16-byte slot group that
# starts at or past the row's end, in the pass and emit loops: seq_lens uniform in [N/2, N] leave up to half).
#  (a) clocks (thread 0) at 1x8K and 1x128K, now vs y.
#  (b) A/B in one process, two alternating rounds, each checked exact.
#  (c) GPU tests: test_skipw.
#   bash shared/device/run.sh bash shared/device/radix13d.sh
set -u
ALTS=${RADIX_ALTS:-"y:skipw=1"}
echo "=== clocks ($(date +%T))"
RADIX_ALTS=$ALTS RADIX_STAMP_CELLS=1x8,1x128 STAMPS=1 SWEEP=0 timeout 60 python3 shared/device/radix_iter.py
echo "=== A/B ($(date +%T))"
RADIX_ALTS=$ALTS RADIX_CELLS=${RADIX_CELLS:-"1x8,1x128,1x32,8x32,8x128,32x128,32x32,1x256,128x32"} STAMPS=0 \
  timeout ${1:-100} python3 shared/device/radix_iter.py
echo "=== tests ($(date +%T))"
timeout ${2:-70} python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix -k "skipw" \
  > "$OUT/pytest-radix13d.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-radix13d.log" | tail -2; grep -E "^(FAILED|ERROR)|Error" "$OUT/pytest-radix13d.log" | head -8
echo "=== done ($(date +%T))"
