#!/bin/bash
# Session 62, call 1 (carry .carry/dsl), on the committed tree:
# - on an H200: `topk bench --grid dsa --sgl` on the shipped code, every installed backend but FlashInfer (not
#   carried), which fills the kernel caches for call 2 (final56.sh, carry .carry/flashinfer, within 30 s on the same
#   machine); nothing else, so that call 2 finds the machine warm;
# - on any other card: where did the select cycles that session 58's fhist and tilesel builds saved go? Session 61's
#   cold stamps put the select at ~35% of a 128x32K row on cold rows as on warm ones, yet neither build was faster
#   (radix_filter NOTES.md, sessions 58 and 61). This call applies shared/dev/patches/fhist-tilesel.diff to the
#   device's copy (the next call's copy is the committed tree again), then
#   1. the patched variants' GPU exactness cases (test_conformance.py -k "fhist or tilesel");
#   2. find_ab.py on 128x32K and 32x32K (FIND_CELLS, default 2,0): shipped vs fh vs ts (and, on DEFAULT's 128x32K,
#      fr: FEW_ROWS' whole-row prefetch) timed (FIND_AB), and the clock stamps of each (STAMP_ALTS) on warm rows,
#      then on cold rows.
#   (ANY_CARD=1 or NO_GRID=1 forces a branch.)
#   TOPK_COMMIT=<hash> DEADLINE=400 bash shared/device/run.sh bash shared/device/check62.sh
# Session 62 ran it once (call 1, on an H100, the second branch): radix_filter NOTES.md, session 62. Its patch
# applies to commit bdbeaff only (0.10.6 moved the candidate selects into candidate_select.py).
set -u
. "$(dirname "$0")/deadline.sh"
. "$(dirname "$0")/card.sh"
. "$(dirname "$0")/stages.sh"
DEFAULT_TAG=session62-dsl
h200_dsa_grid || {
  patch -p1 --forward < shared/dev/patches/fhist-tilesel.diff || { echo "check62.sh: the patch did not apply" >&2; exit 3; }
  GPU_K="fhist or tilesel" gpu_suites 150 packages/topk-radix-filter/tests/test_conformance.py
  FIND_AB=fh,ts,fr STAMP_ALTS=fh,ts,fr FIND_CELLS=${FIND_CELLS:-2,0} warm_cold_stamps
}
echo "=== done ($(date +%T))"
