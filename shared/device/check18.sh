#!/bin/bash
# Session 18 dev call (no carry: Triton only), ~150 s: sgl_fused's resident path (resident.py) and the 12-bit
# bracket of 8K rows on the GPU: test_resident.py and test_warp.py's narrow-bracket and sample-size tests (both
# interpreter-marked, so run without -m), the package's GPU suite, and memcheck + racecheck of the sanitize cases
# those paths take.
#   bash shared/device/run.sh bash shared/device/check18.sh [seconds]
set -u
t=${1:-200}
timeout $t python3 -m pytest -q -p no:cacheprovider -n 4 packages/topk-sgl-fused/tests/test_resident.py \
  packages/topk-sgl-fused/tests/test_warp.py -k "resident or Resident or narrow or sample_configs or gpu_sizes" \
  > "$OUT/pytest-resident.log" 2>&1 &
SAN_CASES=2x8192,100x5000,8x8000,1700x9000,130x24000 SAN_S=$t TEST_S=$t \
  bash shared/device/tests_and_san.sh sgl_fused sgl -m gpu packages/topk-sgl-fused
wait
echo "=== test_resident.py, test_warp.py (narrow bracket, sample sizes)"
grep -E "passed|failed|error" "$OUT/pytest-resident.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-resident.log" | head -12
echo "=== done ($(date +%T))"
