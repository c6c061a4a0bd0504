#!/bin/bash
# (Session 66: radix_filter's `sfirst` and find_ab's `sf` / `sfu8` were removed after commit a75a532; run the
# sfirst steps below on a tree at or before it, where they select its GPU cases and builds.)
# Prepared in session 62 (carry .carry/dsl), on the committed tree:
# - on an H200 (unless NO_GRID=1): `topk bench --grid dsa --sgl` on the shipped code, every installed backend but
#   FlashInfer (not carried), which fills the kernel caches for call 2 (final56.sh, carry .carry/flashinfer, within
#   30 s on the same machine);
# - on any other card, or with NO_GRID=1: radix_filter 0.10.6's `wrank` and `sfirst` (both off everywhere; NOTES.md,
#   session 62: the k-th key's bin of at most 32 listed keys ranked by one warp; the first tile issued after a barrier
#   behind the sample's loads):
#   1. their GPU cases (test_conformance.py -k "wrank or sfirst");
#   2. find_ab.py on 128x32K, 32x32K, 128x128K and 32x128K (FIND_CELLS, default 2,0,3,1): shipped vs wr / sf / sfu8
#      timed (FIND_AB), and the clock stamps of each (STAMP_ALTS; the one-CTA cells only) on warm rows, then cold;
#   3. with what is left of DEADLINE: memcheck of the sgl_fused cases session 62's call 6 did not reach (its NOTES.md).
#   TOPK_COMMIT=<hash> DEADLINE=560 bash shared/device/run.sh bash shared/device/check63.sh
set -u
. "$(dirname "$0")/deadline.sh"
. "$(dirname "$0")/card.sh"
. "$(dirname "$0")/stages.sh"
DEFAULT_TAG=session63-dsl
h200_dsa_grid || {
  GPU_K="wrank or sfirst" gpu_suites 150 packages/topk-radix-filter/tests/test_conformance.py
  FIND_AB=wr,sf,sfu8 STAMP_ALTS=wr,sf,sfu8 FIND_CELLS=${FIND_CELLS:-2,0,3,1} warm_cold_stamps
  echo "=== memcheck sgl_fused, the rest ($(date +%T))"
  SAN_CASES=cases,1700x9000,130x24000,128x30000,400x70000,130x66000,3x16000,4x30000,6x32768,32x32768,16x65536,130x70000,8x100000,120x70000,800x66000,300x33000,130x131072 \
    timeout $(left 300) compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize_cases.py \
    sgl_fused > "$OUT/memcheck-sgl-rest.log" 2>&1
  echo "rc $?"; grep -c "^ok" "$OUT/memcheck-sgl-rest.log"; grep -E "^FAIL|SUMMARY" "$OUT/memcheck-sgl-rest.log"
}
echo "=== done ($(date +%T))"
