#!/bin/bash
# Session 64 (updated in sessions 65 and 66), for a short call (~140-300 s; carry .carry/dsl):
# - on an H200: radix_filter 0.10.8 on issue 4's three cells that miss their floor bar (32x128K, 128x32K,
#   4096x8K), then 32x32K, 128x128K and session 65's sfirst cells (64x32K, 200x32K, 256x64K, k=512), each shipped
#   against `sf` (sfirst's second round; session 66): find_ab.py (CUDA-graph replay, rotating inputs, checked exact
#   first; no peer; `sf` was removed after commit a75a532, so run this at that commit);
# - elsewhere: check66.sh's sanitizer step alone (SAN_ONLY=1).
#   TOPK_COMMIT=<hash> DEADLINE=140 bash shared/device/run.sh bash shared/device/check66b.sh
set -u
. "$(dirname "$0")/stages.sh"
if is_h200; then
  echo "=== find_ab FIND_AB=sf FIND_CELLS=1,2,6,0,3,30,31,32,9 ($(date +%T))"
  FIND_AB=sf FIND_CELLS=1,2,6,0,3,30,31,32,9 timeout $(left 600) python3 shared/device/find_ab.py > "$OUT/ab-h200.log" 2>&1
  echo "rc $?"; grep -E "^ *[0-9]+x" "$OUT/ab-h200.log"; grep -E "Error" "$OUT/ab-h200.log" | head -3
else
  SAN_ONLY=1 NO_GRID=1 bash "$(dirname "$0")/check66.sh"
fi
echo "=== done ($(date +%T))"
