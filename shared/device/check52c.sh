#!/bin/bash
# Session 52, call 4: the pick change (8K rows at 2-12 per SM and WARP_MANY past a first wave longest first) through
# the shipped picks beside index order ("picknolf"), on the timed cells and two WARP_MANY cells it extends to; then
# its GPU tests, four processes side by side (no sanitizer beside them):
#   bash shared/device/run.sh bash shared/device/check52c.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/sgl_plan.sh" "A/B through the picks" ab52.log 180 \
  "1024x8K:noold,picknolf,pick;512x8K:noold,pick,picknolf;2048x32K:noold,picknolf,pick;4096x32K:noold,pick,picknolf;2048x64K:noold,picknolf,pick"
W=packages/topk-sgl-fused/tests/test_warp.py
G=packages/topk-sgl-fused/tests/test_warp_gpu_sizes.py
echo "=== GPU tests ($(date +%T))"
for t in none page_table ragged; do
  timeout ${TEST_S:-240} python3 -m pytest -q -p no:cacheprovider "$W::test_longest_first[$t]" > "$OUT/pytest-lf-$t.log" 2>&1 &
done
timeout ${TEST_S:-240} python3 -m pytest -q -p no:cacheprovider $G -k "WARP_MANY_LF or narrow_bracket" \
  > "$OUT/pytest-sizes.log" 2>&1 &
wait
for t in lf-none lf-page_table lf-ragged sizes; do echo "--- $t"; tail -2 "$OUT/pytest-$t.log"; done
echo "=== done ($(date +%T))"
