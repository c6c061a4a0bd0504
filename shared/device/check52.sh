#!/bin/bash
# Next session's first call (prepared in session 51, not run): picklf on the warp picks that still keep index
# order with several waves: 2-12 rows per SM of 8K columns (the narrow bracket) and more than 12 rows per SM of
# 16K+ columns (WARP_MANY); then 0.27.4's shipped picks again beside index order ("picknolf") on the cells of
# session 51, for a second machine; then test_longest_first on the GPU (718a8fc's cases included). Carry
# .carry/dsl so that final44.sh (the committed run) can follow warm:
#   bash shared/device/run.sh bash shared/device/check52.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/sgl_plan.sh" "picklf, index-order picks" picklf52.log 240 \
  "1024x8K:noold,pick,picklf1,picklf3;512x8K:noold,pick,picklf1;4096x16K:noold,pick,picklf1,picklf6;2048x32K:noold,pick,picklf1,picklf6;512x32K:noold,picknolf,pick;1024x16K:noold,picknolf,pick"
T="packages/topk-sgl-fused/tests/test_warp.py packages/topk-sgl-fused/tests/test_warp_gpu_sizes.py"
echo "=== GPU tests: longest_first, run after the bench, not beside it ($(date +%T))"
timeout ${TEST_S:-150} python3 -m pytest -q -p no:cacheprovider $T -k "longest_first" > "$OUT/pytest-lf.log" 2>&1
echo "=== rc $?"; tail -3 "$OUT/pytest-lf.log"
echo "=== done ($(date +%T))"
