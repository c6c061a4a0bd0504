#!/bin/bash
# Dev only, one device call (carry .carry/dsl), ~150 s: radix's smem_keys (the last S slots' keys in shared
# memory) + min_ctas (registers for 3 CTAs per SM), so 32x128K's 32 clusters of 8 fit the GPU at once
# (gpc_probe: 30 clusters of 8 at 2 CTAs per SM, 45 at 3).
#  (a) clocks (thread 0) and the CTA span at 32x128K, now vs k24.
#  (b) A/B in one process, two alternating rounds, each checked exact.
#  (c) GPU tests: test_smem_keys.
#   bash shared/device/run.sh bash shared/device/radix13b.sh
set -u
ALTS=${RADIX_ALTS:-"k24:smem_keys=24,min_ctas=3;k16:smem_keys=16,min_ctas=3;k24s:smem_keys=24,min_ctas=3,spare=1;k8m3:smem_keys=8,min_ctas=3"}
echo "=== clocks ($(date +%T))"
RADIX_ALTS="k24:smem_keys=24,min_ctas=3" RADIX_STAMP_CELLS=32x128 STAMPS=1 SWEEP=0 timeout 60 python3 shared/device/radix_iter.py
echo "=== A/B ($(date +%T))"
RADIX_ALTS=$ALTS RADIX_CELLS=${RADIX_CELLS:-"32x128,30x128,31x128,28x128"} STAMPS=0 timeout ${1:-100} python3 shared/device/radix_iter.py
echo "=== tests ($(date +%T))"
timeout ${2:-70} python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix -k "smem_keys" \
  > "$OUT/pytest-radix13b.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-radix13b.log" | tail -2; grep -E "^(FAILED|ERROR)|Error|error" "$OUT/pytest-radix13b.log" | head -8
echo "=== done ($(date +%T))"
