#!/bin/bash
# Session 24, carry .carry/dsl: after the small filter chunks (SPLIT_SMALL_CHUNKS), sgl_fused's GPU suite (6 workers)
# beside memcheck + racecheck of the two new cases (and the page-table cases), test_split.py / test_host.py on the GPU,
# then the shipped picks timed on the cells whose chunks changed. Then, within 30 s, the committed tables:
#   TAG=session24 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
#   bash shared/device/run.sh bash shared/device/check24.sh
FILES="test_split.py test_host.py" FILES_S=200 SAN_CASES=${SAN_CASES:-4x30000,6x32768} SAN_S=200 TEST_S=200 \
  PLAN="8x32K:noold,pick;1x32K:noold,pick;4x32K:noold,pick;1x128K:noold,pick;2x128K:noold,pick;8x64K:noold,pick;1x256K:noold,pick;32x32K:noold,pick" \
  PLAN_S=90 exec bash shared/device/sgl_check.sh
