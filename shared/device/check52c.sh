#!/bin/bash
# Session 52, call 4: the pick change (8K rows at 2-12 per SM and WARP_MANY past a first wave longest first) through
# the shipped picks beside index order ("picknolf"), on the timed cells and two WARP_MANY cells it extends to; then
# its GPU tests, four processes side by side (no sanitizer beside them):
#   bash shared/device/run.sh bash shared/device/check52c.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/sgl_plan.sh" "A/B through the picks" ab52.log 180 \
  "1024x8K:noold,picknolf,pick;512x8K:noold,pick,picknolf;2048x32K:noold,picknolf,pick;4096x32K:noold,pick,picknolf;2048x64K:noold,picknolf,pick"
bash "$here/lf_tests.sh" ${TEST_S:-240} packages/topk-sgl-fused/tests/test_warp_gpu_sizes.py \
  -k "WARP_MANY_LF or narrow_bracket"
echo "=== done ($(date +%T))"
