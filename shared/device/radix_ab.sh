#!/bin/bash
# Dev only, one device call (carry .carry/dsl): radix's register kernel, the shipped flags against RADIX_ALTS
# (radix_iter.py: "name:flag=value,...;..."), then sub-phase clocks, then the GPU tests selected by TESTS.
# Session 13's radix13b/c/d.sh were this with ALTS "k24:smem_keys=24,min_ctas=3;...", "q:push0=1", "y:skipw=1"
# (scripts in commit 3518bf2).
#   RADIX_ALTS="q:push0=1" RADIX_CELLS=1x128,8x128 TESTS=push0 bash shared/device/run.sh bash shared/device/radix_ab.sh
set -u
echo "=== clocks ($(date +%T))"
RADIX_ALTS=${RADIX_ALTS:?} RADIX_STAMP_CELLS=${RADIX_STAMP_CELLS:-1x8,1x128} STAMPS=1 SWEEP=0 timeout 60 \
  python3 shared/device/radix_iter.py
echo "=== A/B ($(date +%T))"
RADIX_CELLS=${RADIX_CELLS:-"1x8,1x128,1x32,8x32,8x128,32x128,32x32,1x256,128x32"} STAMPS=0 \
  timeout ${AB_S:-100} python3 shared/device/radix_iter.py
if [ -n "${TESTS:-}" ]; then
  echo "=== tests ($(date +%T))"
  timeout ${TEST_S:-70} python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix -k "$TESTS" \
    > "$OUT/pytest-radix-ab.log" 2>&1
  echo "pytest rc $?"
  grep -E "passed|failed|error" "$OUT/pytest-radix-ab.log" | tail -2
  grep -E "^(FAILED|ERROR)|Error" "$OUT/pytest-radix-ab.log" | head -8
fi
echo "=== done ($(date +%T))"
