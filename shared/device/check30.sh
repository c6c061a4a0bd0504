#!/bin/bash
# Session 30: sgl_fused's GPU tests (the windows at unaligned starts among them: test_windows.py), then the A/B of
# aligned windows ("pick" vs "picknoaw", cells "..rs": row_starts of 1-3 columns) and of the page tile after the
# bracket where it now ships (32x128K, 16x128K) and where it newly streams (64x64K, 4x1M: "pick" vs "picknops"):
#   bash shared/device/run.sh bash shared/device/check30.sh
echo "=== sgl_fused GPU tests"
timeout ${TEST_S:-240} python3 -m pytest -q -p no:cacheprovider -n 8 packages/topk-sgl-fused/tests/test_windows.py \
  packages/topk-sgl-fused/tests/test_warp.py packages/topk-sgl-fused/tests/test_split.py \
  packages/topk-sgl-fused/tests/test_resident.py 2>&1 | grep -E "passed|failed|^(FAILED|ERROR)|^E " | head -12
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"16x128Krs:noold,pick,picknoaw;512x128Krs:noold,pick,picknoaw;4096x8Krs:noold,pick,picknoaw;\
128x32Krs:noold,pick,picknoaw;32x128Krs:noold,pick,picknoaw;512x128Kbf16rs:noold,pick,picknoaw;\
32x128K:noold,pick,pickpssplit,picknops;16x128K:noold,pick,pickpssplit;64x64K:noold,pick,picknops;\
4x1024K:noold,pick,picknops;16x128Krs:noold,pick,picknoaw;512x128Krs:noold,pick,picknoaw"} \
  timeout ${AB_S:-280} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-250}
echo "=== done ($(date +%T))"
