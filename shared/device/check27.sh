#!/bin/bash
# Session 27, carry .carry/dsl: after the two-launch filter's bracket sample loads its runs as vectors
# (SPLIT_SAMPLE_VEC): sgl_fused's GPU suite beside memcheck + racecheck of the page-table cases and the two-launch
# cases of 32K+ float32 columns (6x32768, 32x32768, 16x65536, 32x131072), then test_split.py and test_warp.py's sample
# tests (the runs as vectors at GPU sizes) alone. Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check27.sh
#   TAG=session27 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
SAN_CASES=${SAN_CASES:-6x32768,32x32768,16x65536,32x131072} SAN_S=170 TEST_S=170 WORKERS=8 \
  FILES="test_split.py" BESIDE=0 FILES_S=120 bash shared/device/sgl_check.sh
echo "=== test_warp.py -k sample"
timeout 100 python3 -m pytest -q -p no:cacheprovider -n 8 packages/topk-sgl-fused/tests/test_warp.py -k sample 2>&1 \
  | grep -E "passed|failed|^(FAILED|ERROR)|^E " | head -12
echo "=== done ($(date +%T))"
