#!/bin/bash
# Dev only, one device call (carry .carry/dsl), ~190 s at most: radix's lean flags (regs.py/lean.py:
# fkey = one bound per slot and fp32 keys from a float add, emit1 = bin-edge compares and one branch
# per key in the emit, nozero = pass 0 counts key 0 without a branch).
#  (a) A/B in one process: the shipped variant ("now") against each flag alone and all three ("foz"),
#      issue-5 cells first, then 32x32K and 1x256K, alternating twice; every timing is checked exact
#      first (a FAIL entry = inexact or crashed).
#  (b) the flags' GPU tests (test_lean_variants: randn, int ties, plateaus, NaN/±inf, -0/denormals,
#      huge, bf16/fp16, mixed lengths, next_n=2, with values).
#  (c) clock64 per phase (thread 0 of row 0 rank 0), now vs foz, at 1x8K and 8x128K.
#   bash shared/device/run.sh bash shared/device/radix12.sh [ab_s] [test_s] [stamp_s]
set -u
ALTS=${RADIX_ALTS:-"f:fkey=1;o:emit1=1;z:nozero=1;foz:fkey=1,emit1=1,nozero=1"}
echo "=== A/B ($(date +%T))"
RADIX_ALTS=$ALTS RADIX_CELLS=${RADIX_CELLS:-"1x8,1x32,8x128,1x128,8x32,32x128,32x32,1x256"} STAMPS=0 \
  timeout ${1:-90} python3 shared/device/radix_iter.py
echo "=== tests ($(date +%T))"
timeout ${2:-75} python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix -k "${TESTS:-lean_variants}" \
  > "$OUT/pytest-radix12.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-radix12.log" | tail -2; grep -E "^(FAILED|ERROR)" "$OUT/pytest-radix12.log" | head -8
echo "=== clocks ($(date +%T))"
RADIX_ALTS="foz:fkey=1,emit1=1,nozero=1" RADIX_STAMP_CELLS=1x8,8x128 STAMPS=1 SWEEP=0 \
  timeout ${3:-25} python3 shared/device/radix_iter.py
echo "=== done ($(date +%T))"
