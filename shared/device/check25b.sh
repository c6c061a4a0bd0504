#!/bin/bash
# Session 25, carry .carry/dsl: after the page table's warp configs stream two tiles ahead (WARP_PAGE_AHEAD), a
# second A/B round on the GPU first (shipped picks against one tile ahead, "pickah1"), then sgl_fused's GPU suite
# beside memcheck + racecheck of the page-table cases (150x20000 and 300x17000 take the two-tiles-ahead configs),
# then test_warp.py (with test_two_tiles_ahead at GPU sizes) and test_host.py alone. Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check25b.sh
#   TAG=session25b GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
PLAN_FIRST="128x32K:noold,pick,pickah1;1024x64K:noold,pick,pickah1;512x128K:noold,pick,pickah1;256x32K:noold,pick,pickah1;128x32K:noold,pick,pickah1;1024x64K:noold,pick,pickah1" \
  PLAN_S=100 PLAN_T=120 SAN_CASES=${SAN_CASES:-none} SAN_S=200 TEST_S=200 WORKERS=8 \
  FILES="test_warp.py test_host.py" BESIDE=0 FILES_S=200 exec bash shared/device/sgl_check.sh
