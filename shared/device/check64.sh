#!/bin/bash
# (Session 66: radix_filter's `sfirst` and find_ab's `sf` / `sfu8` were removed after commit a75a532; run the
# sfirst steps below on a tree at or before it, where they select its GPU cases and builds.)
# Prepared in session 63 (carry .carry/dsl), on the committed tree:
# - on an H200 (unless NO_GRID=1): `topk bench --grid dsa --sgl` on the shipped code (radix_filter 0.10.7, wrank on),
#   every installed backend but FlashInfer (not carried); it fills the kernel caches for call 2 (final56.sh, carry
#   .carry/flashinfer, within 30 s on the same machine);
# - on any other card, or with NO_GRID=1:
#   1. `sfirst` on top of the shipped wrank: its GPU cases (test_conformance.py -k sfirst, 25);
#   2. find_ab.py, shipped vs sf / sfu8, timed (no stamps) on 32x32K, 64x32K, 128x32K, 200x32K, 256x64K, 128x128K and
#      k=512 (FIND_CELLS 0,30,2,31,32,3,9): sfirst turns DEFAULT's `late` off, chosen in session 8 for 65+ rows;
#   3. with what is left of DEADLINE: memcheck of sgl_fused's 8x8000 case, then racecheck of the first half of the
#      35 kit cases session 63's call 4 did not reach (sgl_fused NOTES.md, session 63), in chunks of six (session 64).
#   TOPK_COMMIT=<hash> DEADLINE=560 bash shared/device/run.sh bash shared/device/check64.sh
#   (SAN_ONLY=1: step 3 alone, for a short call; session 64)
set -u
. "$(dirname "$0")/stages.sh"
DEFAULT_TAG=session64-dsl
h200_dsa_grid || {
  if [ "${SAN_ONLY:-0}" != 1 ]; then
    GPU_K="sfirst" gpu_suites 150 packages/topk-radix-filter/tests/test_conformance.py
    echo "=== find_ab FIND_AB=sf,sfu8 ($(date +%T))"
    FIND_AB=sf,sfu8 FIND_CELLS=${FIND_CELLS:-0,30,2,31,32,3,9} timeout $(left 200) python3 shared/device/find_ab.py \
      > "$OUT/ab-sf.log" 2>&1
    echo "rc $?"; grep -E "^ *[0-9]+x" "$OUT/ab-sf.log"; grep -E "Error" "$OUT/ab-sf.log" | head -3
  fi
  # racecheck in chunks of six cases, each its own process and summary: a cut chunk loses only itself
  sanitize sgl_fused "memcheck 8x8000" \
    "racecheck 4x70001,1x1048576,72x20000,40x70000,300x17000,450x17000" \
    "racecheck 2100x3000,6x12001,5x8191,500x6000,300x20000,2x600000" \
    "racecheck 72x40000,80x30000,32x131072,2x8192,100x5000,8x8000"
}
echo "=== done ($(date +%T))"
