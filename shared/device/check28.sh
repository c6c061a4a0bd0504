#!/bin/bash
# Session 28, carry .carry/dsl: after the page table streamed beside the scores (WarpConfig.page_stream on
# WARP_MANY_SMALL_PAGE, WARP_FEW_LARGE_PAGE and WARP_MID_PAGE's family; SplitConfig.page_stream on float32 calls of
# at most 2**21 columns): sgl_fused's GPU suite beside memcheck + racecheck of the nine page-table cases (150x20000,
# 300x17000 and 1700x9000 stream on the warp path, 8x32768, 2x131072 and 8x131072 on the two-launch path), then the
# page-stream tests and the sample-config tests at GPU sizes (session 27's unfinished `-k sample`). Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check28.sh
#   TAG=session28 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
SAN_CASES=${SAN_CASES:-none} SAN_S=${SAN_S:-130} TEST_S=${TEST_S:-130} WORKERS=8 bash shared/device/sgl_check.sh
echo "=== test_warp.py / test_split.py -k 'page_stream or sample or page_block'"
timeout ${FILES_S:-120} python3 -m pytest -q -p no:cacheprovider -n 12 packages/topk-sgl-fused/tests/test_warp.py \
  packages/topk-sgl-fused/tests/test_split.py -k "page_stream or sample or page_block" 2>&1 \
  | grep -E "passed|failed|^(FAILED|ERROR)|^E " | head -12
echo "=== done ($(date +%T))"
