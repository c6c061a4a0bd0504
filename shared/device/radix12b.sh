#!/bin/bash
# Dev only, one device call (carry .carry/dsl), ~145 s at most: radix's flags preclear (histograms zeroed
# by 16-byte stores before the row-length test, in the loads' shadow), upscan (predicated shfl.up warp
# scans, one warp sum in the find) and emitb (above-bin outputs in ballot order: one store per warp and
# slot covers consecutive outputs; E <= 16 only, so 32x128K and 1x256K run it as "now").
#  (a) A/B in one process: the shipped variant ("now" = 0.3.0: fkey + emit1 + nozero on fp32) against
#      u, pu, b and pub, issue-5 cells first, then 32x32K and 1x256K, alternating twice; every timing is
#      checked exact first (a FAIL entry = inexact or crashed).
#  (b) the flags' GPU tests (test_lean_variants "-pub" cases: randn, int ties, plateaus, NaN/±inf,
#      -0/denormals, huge, bf16/fp16, mixed and short lengths, next_n=2, with values).
#  (c) clock64 per phase (thread 0 of row 0 rank 0), now vs pub, at 1x8K, 8x128K and 32x128K.
#   bash shared/device/run.sh bash shared/device/radix12b.sh [ab_s] [test_s] [stamp_s]
set -u
ALTS=${RADIX_ALTS:-"u:upscan=1;pu:preclear=1,upscan=1;b:emitb=1;pub:preclear=1,upscan=1,emitb=1"}
echo "=== A/B ($(date +%T))"
RADIX_ALTS=$ALTS RADIX_CELLS=${RADIX_CELLS:-"1x8,1x32,8x128,1x128,8x32,32x128,32x32,1x256"} STAMPS=0 \
  timeout ${1:-65} python3 shared/device/radix_iter.py
echo "=== tests ($(date +%T))"
timeout ${2:-55} python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix \
  -k "${TESTS:-lean_variants and pub}" > "$OUT/pytest-radix12b.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-radix12b.log" | tail -2; grep -E "^(FAILED|ERROR)" "$OUT/pytest-radix12b.log" | head -8
echo "=== clocks ($(date +%T))"
RADIX_ALTS="pub:preclear=1,upscan=1,emitb=1" RADIX_STAMP_CELLS=1x8,8x128,32x128 STAMPS=1 SWEEP=0 \
  timeout ${3:-25} python3 shared/device/radix_iter.py
echo "=== done ($(date +%T))"
