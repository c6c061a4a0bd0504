#!/bin/bash
# Session 27, second pair, carry .carry/dsl: after WARP_FEW_LARGE[_PAGE] write their candidates as one 64-bit word
# (pack_cands): sgl_fused's GPU suite beside memcheck + racecheck of the nine page-table cases (150x20000 takes
# WARP_FEW_LARGE_PAGE) and 130x24000 (WARP_FEW_LARGE), then test_warp.py's packed-candidate and sample-config tests
# (the shipped picks at GPU sizes). Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check27b.sh
#   TAG=session27b GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
SAN_CASES=${SAN_CASES:-130x24000} SAN_S=150 TEST_S=150 WORKERS=8 bash shared/device/sgl_check.sh
echo "=== test_warp.py -k 'packed or sample_configs'"
timeout 110 python3 -m pytest -q -p no:cacheprovider -n 8 packages/topk-sgl-fused/tests/test_warp.py \
  -k "packed or sample_configs" 2>&1 | grep -E "passed|failed|^(FAILED|ERROR)|^E " | head -12
echo "=== done ($(date +%T))"
