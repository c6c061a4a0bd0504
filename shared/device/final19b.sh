#!/bin/bash
# Session 19, second final pair, first call (carry .carry/dsl), ~300 s: sgl_fused 0.9.0 after the late config changes
# (the two-launch select in 8 warps with the early tile on float32 rows of 32K+, WARP_MID_LARGE) through its GPU
# suite, test_warp.py / test_split.py / test_resident.py on the GPU and the strided-vector tests, with memcheck +
# racecheck of the sanitize cases those configs take. The second call, within 30 s:
#   TAG=session19 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
#   bash shared/device/run.sh bash shared/device/final19b.sh [seconds]
set -u
t=${1:-300}
timeout $t python3 -m pytest -q -p no:cacheprovider -n 6 packages/topk-sgl-fused/tests/test_warp.py \
  packages/topk-sgl-fused/tests/test_split.py packages/topk-sgl-fused/tests/test_resident.py \
  tests/test_strided_vectors.py > "$OUT/pytest-warp-split.log" 2>&1 &
SAN_CASES=1x40000,2x131072,40x70000,32x131072,400x70000,1700x9000,2x8192 SAN_S=$t TEST_S=$t \
  bash shared/device/tests_and_san.sh sgl_fused sgl -m gpu packages/topk-sgl-fused
wait
echo "=== test_warp.py, test_split.py, test_resident.py, strided vectors"
grep -E "passed|failed|error" "$OUT/pytest-warp-split.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-warp-split.log" | head -12
echo "=== done ($(date +%T))"
