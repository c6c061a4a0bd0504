#!/bin/bash
# (Session 66: radix_filter's `sfirst` and find_ab's `sf` / `sfu8` were removed after commit a75a532; run the
# sfirst steps below on a tree at or before it, where they select its GPU cases and builds.)
# Session 63, after call 3's A/B (wrank faster on all four cells): radix_filter 0.10.7 ships wrank on DEFAULT,
# FEW_ROWS and FEW_LONG_ROWS_3 (so FEW_HUGE_ROWS). Carry .carry/dsl.
#   1. find_ab.py: the shipped builds against ``wr`` (now wrank off: 0.10.6's builds) and ``sf`` (sfirst on top of
#      wrank) on 128x32K, 32x32K, 128x128K, 32x128K; ``wr`` alone on k=512, 64x128K, 16x128K, 1x1M, 8x512K;
#   2. radix_filter's GPU tests through the public API (the kit class and the planned-variant tests), cut by DEADLINE.
# (As run in session 63's call 5, the log of the first pass was named ab-wr,sf.log, which the device tool does not
# return, and pytest got 15 s: fixed since.)
#   TOPK_COMMIT=<hash> DEADLINE=540 bash shared/device/run.sh bash shared/device/check63b.sh
set -u
. "$(dirname "$0")/stages.sh"
for pass in "wr,sf 2,0,3,1" "wr 9,10,11,19,21"; do
  set -- $pass
  echo "=== find_ab FIND_AB=$1 FIND_CELLS=$2 ($(date +%T))"
  FIND_AB=$1 FIND_CELLS=$2 timeout $(left 330) python3 shared/device/find_ab.py > "$OUT/ab-${1//,/-}.log" 2>&1
  echo "rc $?"; grep -E "^ *[0-9]+x" "$OUT/ab-${1//,/-}.log"; grep -E "Error|error" "$OUT/ab-${1//,/-}.log" | head -3
done
GPU_K="TestRadixFilter or wrank or planned or huge or api_smoke or batch_shapes or kth_key_far" \
  gpu_suites 480 packages/topk-radix-filter/tests/test_conformance.py
echo "=== done ($(date +%T))"
