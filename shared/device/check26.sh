#!/bin/bash
# Session 26, carry .carry/dsl: after the bracket samples in runs of 8 adjacent columns (WARP_SAMPLE_RUN on every warp
# config, SPLIT_SAMPLE_RUN on float32 two-launch filters of 32K+ columns; WARP_FEW_LARGE back to 4096 keys) and the
# resident one-scan placement (RESIDENT.one_scan): sgl_fused's GPU suite beside memcheck + racecheck of the page-table
# cases and of the cases on those paths (warp: 130x24000, 400x70000, 130x66000, 1700x9000; two-launch: 32x32768,
# 16x65536; resident: 2x8192, and the 1x8192 page case), then test_warp.py, test_split.py (the new sample-run tests at
# GPU sizes) and test_resident.py alone. Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check26.sh
#   TAG=session26 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
SAN_CASES=${SAN_CASES:-130x24000,400x70000,130x66000,1700x9000,32x32768,16x65536,2x8192} SAN_S=180 TEST_S=180 \
  WORKERS=8 FILES="test_warp.py test_split.py test_resident.py" BESIDE=0 FILES_S=170 exec bash shared/device/sgl_check.sh
