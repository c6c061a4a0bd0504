#!/bin/bash
# Session 60's first call (carry .carry/dsl), for a small budget: check59.sh's stamps first, then whatever is left
# of DEADLINE (deadline.sh's default 540) on the dsa grid with the SGL transforms (an H200 only; no FlashInfer).
# 1. find_ab.py stamps on 128x32K, 32x32K and 128x128K (FIND_CELLS, default 2,0,3): warm rows, then cold rows
#    (STAMP_COLD=1), radix_filter NOTES.md session 58's next step;
# 2. on an H200: `topk bench --grid dsa --sgl`, every installed backend but FlashInfer (not carried).
#   TOPK_COMMIT=<hash> DEADLINE=300 bash shared/device/run.sh bash shared/device/check60.sh
# Session 60 asked for it eight times (DEADLINE 330 down to 110) and never got a machine
# (benchmarks/results/2026-12-07-cuda-session60-iterations.log): not run yet. Its stamps stage ran in session 61
# through check59.sh (radix_filter NOTES.md, session 61).
set -u
. "$(dirname "$0")/deadline.sh"
. "$(dirname "$0")/card.sh"
. "$(dirname "$0")/stages.sh"
DEFAULT_TAG=session60-dsl
warm_cold_stamps
if is_h200; then bench_dsl --grid dsa --sgl; fi
echo "=== done ($(date +%T))"
