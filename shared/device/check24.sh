#!/bin/bash
# Session 24, carry .carry/dsl: after the small filter chunks (SPLIT_SMALL_CHUNKS), sgl_fused's GPU suite (8 workers)
# beside memcheck + racecheck of the two new cases (and the page-table cases), test_split.py / test_host.py on the GPU,
# then the shipped picks timed on the cells whose chunks changed. Then, within 30 s, the committed tables:
#   TAG=session24 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
#   bash shared/device/run.sh bash shared/device/check24.sh
set -u
timeout 200 python3 -m pytest -q -p no:cacheprovider -n 6 packages/topk-sgl-fused/tests/test_split.py \
  packages/topk-sgl-fused/tests/test_host.py > "$OUT/pytest-split.log" 2>&1 &
SAN_CASES=${SAN_CASES:-4x30000,6x32768} SAN_S=200 TEST_S=200 bash shared/device/tests_and_san.sh sgl_fused sgl -n 6 \
  -m gpu packages/topk-sgl-fused
wait
echo "=== test_split.py test_host.py"
grep -E "passed|failed|error" "$OUT/pytest-split.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-split.log" | head -12
SGL_PLAN="8x32K:noold,pick;1x32K:noold,pick;4x32K:noold,pick;1x128K:noold,pick;2x128K:noold,pick;8x64K:noold,pick;1x256K:noold,pick;32x32K:noold,pick" \
  timeout 100 python3 shared/device/sgl10_bench.py 90 2>&1 | grep -E "^ +[0-9]+x"
echo "=== done ($(date +%T))"
