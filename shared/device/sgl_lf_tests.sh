#!/bin/bash
# sgl_fused's longest_first GPU tests, then memcheck and racecheck of them (none transform) side by side.
#   bash shared/device/sgl_lf_tests.sh <pytest timeout s> <sanitizer timeout s>   (from check39.sh, check45.sh)
set -u
LF="packages/topk-sgl-fused/tests/test_row_order.py packages/topk-sgl-fused/tests/test_warp.py"
echo "=== sgl_fused longest_first GPU tests ($(date +%T))"
timeout "$1" python3 -m pytest -q -p no:cacheprovider $LF -k "order_kernel or launch_order or longest_first" \
  > "$OUT/pytest-sgl-lf.log" 2>&1
echo "=== rc $?"; tail -3 "$OUT/pytest-sgl-lf.log"
for tool in memcheck racecheck; do
  timeout "$2" compute-sanitizer --tool $tool --report-api-errors no python3 -m pytest -q -p no:cacheprovider $LF \
    -k "order_kernel or launch_order or (longest_first and none)" > "$OUT/san-lf-$tool.log" 2>&1 &
done
wait
for tool in memcheck racecheck; do
  echo "=== $tool:"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" "$OUT/san-lf-$tool.log" | tail -3
done
