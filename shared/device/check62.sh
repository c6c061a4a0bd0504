#!/bin/bash
# Prepared in session 61 (carry .carry/dsl), on the tree with shared/dev/patches/fhist-tilesel.diff applied (`git
# apply` it before the call, `git checkout` its four files after): where did the select cycles that session 58's
# fhist and tilesel builds saved go? Session 61's cold stamps put the select at ~35% of a 128x32K row on cold rows as
# on warm ones, yet neither build was faster (radix_filter NOTES.md, sessions 58 and 61).
# 1. the patched variants' GPU exactness cases (test_conformance.py -k "fhist or tilesel");
# 2. find_ab.py on 128x32K and 32x32K (FIND_CELLS, default 2,0): shipped vs fh vs ts (and, on DEFAULT's 128x32K,
#    fr: FEW_ROWS' whole-row prefetch) timed (FIND_AB), and the clock stamps of each (STAMP_ALTS) on warm rows, then
#    on cold rows.
#   TOPK_COMMIT=<hash> DEADLINE=400 bash shared/device/run.sh bash shared/device/check62.sh
set -u
. "$(dirname "$0")/deadline.sh"
. "$(dirname "$0")/stages.sh"
grep -q "fhist" packages/topk-radix-filter/src/topk_radix_filter/launch.py || {
  echo "check62.sh: apply shared/dev/patches/fhist-tilesel.diff first" >&2; exit 3; }
GPU_K="fhist or tilesel" gpu_suites 150 packages/topk-radix-filter/tests/test_conformance.py
FIND_AB=fh,ts,fr STAMP_ALTS=fh,ts,fr FIND_CELLS=${FIND_CELLS:-2,0} warm_cold_stamps
echo "=== done ($(date +%T))"
