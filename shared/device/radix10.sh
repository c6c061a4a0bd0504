#!/bin/bash
# Dev only, one device call (carry .carry/dsl): radix's sampled bracket (regs_sampled.py): its GPU
# tests, then the A/B against the shipped register kernel on the decode cells (radix_iter.py).
#   bash shared/device/run.sh bash shared/device/radix10.sh [test_seconds] [ab_seconds]
set -u
timeout ${1:-150} python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix -k "${TESTS:-sampled_bracket}" \
  > "$OUT/pytest-radix10.log" 2>&1
grep -E "passed|failed|error" "$OUT/pytest-radix10.log" | tail -2; grep -E "^(FAILED|ERROR)" "$OUT/pytest-radix10.log" | head -8
RADIX_ALTS=${RADIX_ALTS:-"s2k:gather=16384,sample=2048;s4k:gather=16384,sample=4096"} STAMPS=0 \
  timeout ${2:-200} python3 shared/device/radix_iter.py
