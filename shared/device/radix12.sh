#!/bin/bash
# Dev only, one device call (carry .carry/dsl): radix's lean flags (regs.py/lean.py: fkey = fp32 keys
# from a float add, emit1 = edge compares and one branch per kept key in the emit, nozero = pass 0
# counts key 0 without a branch). (a) A/B in one process, the shipped variant ("now") against each
# flag alone and all three, on the issue-5 cells + 32x32K + 1x256K, alternating twice, every timing
# checked exact first (a FAIL entry = inexact or crashed); (b) the GPU tests of the flags
# (test_lean_variants: randn, int ties, plateaus, NaN/±inf, -0/denormals, huge, bf16/fp16, mixed
# lengths, next_n=2, with values).
#   bash shared/device/run.sh bash shared/device/radix12.sh [ab_seconds] [test_seconds]
set -u
echo "=== A/B ($(date +%T))"
RADIX_ALTS=${RADIX_ALTS:-"f:fkey=1;o:emit1=1;z:nozero=1;foz:fkey=1,emit1=1,nozero=1"} \
  RADIX_CELLS=${RADIX_CELLS:-"1x8,1x32,8x128,1x128,8x32,32x128,32x32,1x256"} STAMPS=0 \
  timeout ${1:-95} python3 shared/device/radix_iter.py
echo "=== tests ($(date +%T))"
timeout ${2:-95} python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix -k "${TESTS:-lean_variants}" \
  > "$OUT/pytest-radix12.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-radix12.log" | tail -2; grep -E "^(FAILED|ERROR)" "$OUT/pytest-radix12.log" | head -8
echo "=== done ($(date +%T))"
