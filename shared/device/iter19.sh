#!/bin/bash
# Session 19 dev call (no carry: Triton only): the A/B of the resident path's interpolation search (r8sec) against
# the shipped bisection (r8) on a quiet GPU first, then sgl_fused's resident / warp / split / host tests, the
# package's GPU suite, and memcheck + racecheck of the resident sanitize cases.
#   bash shared/device/run.sh bash shared/device/iter19.sh [ab_seconds] [test_seconds]
set -u
ab=${1:-120} t=${2:-200}
SGL_PLAN=${SGL_PLAN:-"1x8K:noold,r8,r8sec;8x8K:noold,r8,r8sec;64x8K:noold,r8,r8sec;128x8K:noold,r8,r8sec;1x8Kbf16:noold,r8,r8sec;1x5K:noold,r8,r8sec"} \
  timeout $((ab + 30)) python3 shared/device/sgl10_bench.py $ab 2>&1 | tail -60
echo "=== A/B done ($(date +%T))"
timeout $t python3 -m pytest -q -p no:cacheprovider -n 4 packages/topk-sgl-fused/tests/test_resident.py \
  packages/topk-sgl-fused/tests/test_warp.py packages/topk-sgl-fused/tests/test_split.py \
  packages/topk-sgl-fused/tests/test_host.py -k "resident or Resident or narrow or sample_configs or gpu_sizes or few_long or host or pick" \
  > "$OUT/pytest-resident.log" 2>&1 &
SAN_CASES=2x8192,100x5000,8x8000,1700x9000,130x24000 SAN_S=$t TEST_S=$t \
  bash shared/device/tests_and_san.sh sgl_fused sgl -m gpu packages/topk-sgl-fused
wait
echo "=== test_resident/warp/split/host"
grep -E "passed|failed|error" "$OUT/pytest-resident.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-resident.log" | head -12
echo "=== done ($(date +%T))"
