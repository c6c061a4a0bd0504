#!/bin/bash
# Session 19, first call of the final warm pair (carry .carry/dsl), ~360 s: sgl_fused 0.9.0 (selects by interpolation:
# the resident path on float32 rows, the warp and two-launch candidate selects) through its GPU suite, test_warp.py,
# test_split.py and test_resident.py (interpreter-marked, so run without -m, in parallel workers: their first builds
# are slow), the repo's strided-vector tests, and memcheck + racecheck of its
# sanitize_cases.py cases (all 31). The second call, within 30 s:
#   TAG=session19 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
#   bash shared/device/run.sh bash shared/device/final19.sh [seconds]
set -u
t=${1:-330}
timeout $t python3 -m pytest -q -p no:cacheprovider -n 6 packages/topk-sgl-fused/tests/test_warp.py \
  packages/topk-sgl-fused/tests/test_split.py packages/topk-sgl-fused/tests/test_resident.py \
  tests/test_strided_vectors.py > "$OUT/pytest-warp-split.log" 2>&1 &
SAN_S=$t TEST_S=$t bash shared/device/tests_and_san.sh sgl_fused sgl -m gpu packages/topk-sgl-fused
wait
echo "=== test_warp.py, test_split.py, test_resident.py, strided vectors"
grep -E "passed|failed|error" "$OUT/pytest-warp-split.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-warp-split.log" | head -12
echo "=== done ($(date +%T))"
