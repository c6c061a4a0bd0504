#!/bin/bash
# Session 60's first call (carry .carry/dsl), for a small budget: check59.sh's stamps first, then whatever is left
# of DEADLINE (deadline.sh's default 540) on the dsa grid with the SGL transforms (an H200 only; no FlashInfer).
# 1. find_ab.py stamps on 128x32K, 32x32K and 128x128K (FIND_CELLS, default 2,0,3): warm rows, then cold rows
#    (STAMP_COLD=1), radix_filter NOTES.md session 58's next step;
# 2. on an H200: `topk bench --grid dsa --sgl`, every installed backend but FlashInfer (not carried).
#   TOPK_COMMIT=<hash> DEADLINE=300 bash shared/device/run.sh bash shared/device/check60.sh
# Session 60 asked for it eight times (DEADLINE 330 down to 110) and never got a machine
# (benchmarks/results/2026-12-07-cuda-session60-iterations.log): not run yet.
set -u
. "$(dirname "$0")/deadline.sh"
. "$(dirname "$0")/card.sh"
. "$(dirname "$0")/stamps.sh"
warm_cold_stamps
if is_h200; then
  echo "=== topk bench --grid dsa --sgl, no FlashInfer ($(date +%T))"
  timeout $(left 330) python3 -m topk_core bench --grid dsa --sgl --out "$OUT" --replays 10 \
    --tag "${TAG:-session60-dsl}" 2>&1 | tr '\r' '\n' | grep -v "topk bench: *[0-9]*%" | tail -30
fi
echo "=== done ($(date +%T))"
