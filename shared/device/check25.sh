#!/bin/bash
# Session 25, carry .carry/dsl: after 16-warp filters in chunks of 8192 (SPLIT_ONE_WAVE_WARPS), sgl_fused's GPU suite
# (6 workers) beside memcheck + racecheck of the two new cases (and the page-table cases, 8x131072 new),
# test_split.py / test_host.py / test_paths.py on the GPU, then the shipped picks timed on the cells whose filter
# changed and two that kept theirs. Then, within 30 s, the committed tables:
#   bash shared/device/run.sh bash shared/device/check25.sh
#   TAG=session25 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
FILES="test_split.py test_host.py test_paths.py" FILES_S=220 SAN_CASES=${SAN_CASES:-32x32768,16x65536} SAN_S=230 \
  TEST_S=220 PLAN="8x128K:noold,pick;16x64K:noold,pick;32x32K:noold,pick;16x128K:noold,pick;32x128K:noold,pick" \
  PLAN_S=70 exec bash shared/device/sgl_check.sh
