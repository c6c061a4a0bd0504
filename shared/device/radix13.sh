#!/bin/bash
# Dev only, one device call (carry .carry/dsl), ~240 s: radix's `spare` flag (CTAs whose slice starts past
# the row's end exit before pass 0) and whether 32x128K's clusters of 8 run in two waves.
#  (a) gpc_probe.cu: cudaOccupancyMaxActiveClusters per cluster size and CTAs per SM; spinning launches.
#  (b) clocks (thread 0) and the CTA span, now vs spare, at 32x128K, 30x128K, 1x128K.
#  (c) A/B in one process, now vs spare (s), issue-5 cells first, 2 alternating rounds, each checked exact.
#  (d) forced geometries (RADIX_GEOS) with the shipped flags + spare.
#  (e) GPU tests: test_spare_ctas (7 geometries x 3 variants: lengths at every slice edge, ties, NaN, 16-bit).
#   bash shared/device/run.sh bash shared/device/radix13.sh
set -u
echo "=== gpc probe ($(date +%T))"
nvcc -O2 -arch=sm_90a -o /tmp/gpc_probe shared/device/gpc_probe.cu && timeout 30 /tmp/gpc_probe
echo "=== clocks ($(date +%T))"
RADIX_ALTS="s:spare=1" RADIX_STAMP_CELLS=32x128,30x128,1x128 STAMPS=1 SWEEP=0 timeout 60 python3 shared/device/radix_iter.py
echo "=== A/B ($(date +%T))"
RADIX_ALTS="s:spare=1" RADIX_CELLS=${RADIX_CELLS:-"32x128,1x128,8x128,1x32,8x32,32x32,30x128,1x256,128x32"} STAMPS=0 \
  RADIX_GEOS=${RADIX_GEOS:-"1x8:1,512,16;1x128:8,1024,16;32x128:16,256,32"} RADIX_GEO_FLAGS=spare=1 \
  timeout ${1:-110} python3 shared/device/radix_iter.py
echo "=== tests ($(date +%T))"
timeout ${2:-70} python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix -k "spare_ctas" \
  > "$OUT/pytest-radix13.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-radix13.log" | tail -2; grep -E "^(FAILED|ERROR)" "$OUT/pytest-radix13.log" | head -8
echo "=== done ($(date +%T))"
