#!/bin/bash
# Session 29 (prepared for the next session's first call; no carry needed): the page-stream tests on the GPU, the
# two-launch filter's page tile after the bracket among them (SplitConfig.page_after_bracket, test_split_page_stream
# at 8x32K, 32x128K, 1x32K, 4x70000), then its A/B against the shipped picks and the early page tile (sgl10_bench.py
# "pickpsab" / "pickpssplit"; every timed input checked exact), and the cost of unaligned scores: cells "..rs" window
# each row at a runtime start of 1-3 columns (row_starts), with and without the page stream ("picknops"):
#   bash shared/device/run.sh bash shared/device/check29.sh
echo "=== test_warp.py / test_split.py -k page_stream"
timeout ${TEST_S:-150} python3 -m pytest -q -p no:cacheprovider -n 8 packages/topk-sgl-fused/tests/test_warp.py \
  packages/topk-sgl-fused/tests/test_split.py -k "page_stream" 2>&1 \
  | grep -E "passed|failed|^(FAILED|ERROR)|^E " | head -12
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"32x128K:noold,pick,pickpssplit,pickpsab;64x128K:noold,pick,pickpssplit,pickpsab;\
16x128K:noold,pick,pickpsab;16x128Krs:noold,pick,picknops,pickpsab;512x128K:noold,pick;512x128Krs:noold,pick,picknops;\
8x32K:noold,pick,pickpsab;1x128K:noold,pick,pickpsab;32x128K:noold,pick,pickpsab"} \
  timeout ${AB_S:-250} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-220}
echo "=== done ($(date +%T))"
