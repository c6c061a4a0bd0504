#!/bin/bash
# Session 51, sgl_fused 0.27.4 (2-12 rows per SM of 16K-32K columns longest first past a first wave): the A/B through
# the shipped picks ("picknolf": the same picks in index order), timed first and alone; then the changed picks' GPU
# tests with memcheck of test_longest_first[page_table] beside them. Carry .carry/dsl so final44.sh can follow warm:
#   bash shared/device/run.sh bash shared/device/check51b.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/sgl_plan.sh" "A/B" ab.log 150 \
  "512x32K:noold,picknolf,pick;1024x32K:noold,picknolf,pick;300x16K:noold,picknolf,pick;1024x16K:noold,picknolf,pick;512x128K:noold,pick;4096x8K:noold,pick"
T="packages/topk-sgl-fused/tests/test_warp.py packages/topk-sgl-fused/tests/test_warp_gpu_sizes.py"
timeout ${SAN_S:-200} compute-sanitizer --tool memcheck --report-api-errors no python3 -m pytest -q -p no:cacheprovider \
  $T -k "longest_first and page_table" > "$OUT/san-memcheck.log" 2>&1 &
echo "=== GPU tests ($(date +%T))"
timeout ${TEST_S:-200} python3 -m pytest -q -p no:cacheprovider $T \
  -k "longest_first or _LF or (16bit_picks and 300-20000)" > "$OUT/pytest-sgl.log" 2>&1
echo "=== rc $?"; tail -3 "$OUT/pytest-sgl.log"
wait
echo "=== memcheck:"; grep -E "ERROR SUMMARY|passed|failed" "$OUT/san-memcheck.log" | tail -3
echo "=== done ($(date +%T))"
