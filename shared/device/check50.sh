#!/bin/bash
# Session 50: sgl_fused 0.27.3 ships longest_first in the 2-12 rows per SM long-row picks (WARP_MID_LARGE_ORDER).
# Its GPU tests (the order kernel, test_longest_first with the shipped picks at 300x64K and 900x64K, the picks at GPU
# sizes), with memcheck and racecheck of test_longest_first[none] beside them. Carry .carry/dsl so that the
# committed run (final44.sh) can follow on the warm machine:
#   bash shared/device/run.sh bash shared/device/check50.sh
# Session 50's call got 27 of 43 tests through in 170 s beside both sanitizers, and racecheck did not finish (session
# 51 ran the rest: check51.sh). The
# rest, with racecheck alone (TOOLS picks the sanitizers, TESTK the tests):
#   TOOLS=racecheck TESTK="longest_first or 16bit_picks or (narrow and page_table-4096)" TEST_S=300 SAN_S=300 \
#     bash shared/device/run.sh bash shared/device/check50.sh
set -u
T="packages/topk-sgl-fused/tests/test_row_order.py packages/topk-sgl-fused/tests/test_warp.py
  packages/topk-sgl-fused/tests/test_warp_gpu_sizes.py"
for tool in ${TOOLS:-memcheck racecheck}; do
  timeout ${SAN_S:-170} compute-sanitizer --tool $tool --report-api-errors no python3 -m pytest -q -p no:cacheprovider \
    $T -k "longest_first and none" > "$OUT/san-$tool.log" 2>&1 &
done
echo "=== sgl_fused GPU tests ($(date +%T))"
timeout ${TEST_S:-170} python3 -m pytest -q -p no:cacheprovider $T \
  -k "${TESTK:-order_kernel or launch_order or longest_first or gpu_sizes}" > "$OUT/pytest-sgl.log" 2>&1
echo "=== rc $?"; tail -3 "$OUT/pytest-sgl.log"
wait
for tool in ${TOOLS:-memcheck racecheck}; do
  echo "=== $tool:"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" "$OUT/san-$tool.log" | tail -3
done
echo "=== done ($(date +%T))"
