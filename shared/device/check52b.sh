#!/bin/bash
# Session 52, call 3: the second round of check52.sh's picklf A/B (the order reversed: the ordered pick first),
# then test_longest_first's three transforms on the GPU, side by side (each compiles and checks alone; call 1's
# serial run passed one in 150 s):
#   bash shared/device/run.sh bash shared/device/check52b.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/sgl_plan.sh" "picklf, round 2" picklf52b.log 120 \
  "1024x8K:noold,picklf3,pick;2048x32K:noold,picklf6,pick;512x8K:noold,picklf3,picklf1,pick;4096x16K:noold,picklf6,pick"
T=packages/topk-sgl-fused/tests/test_warp.py
echo "=== GPU tests: test_longest_first, one process a transform ($(date +%T))"
for t in none page_table ragged; do
  timeout ${TEST_S:-300} python3 -m pytest -q -p no:cacheprovider "$T::test_longest_first[$t]" > "$OUT/pytest-lf-$t.log" 2>&1 &
done
wait
for t in none page_table ragged; do echo "--- $t"; tail -2 "$OUT/pytest-lf-$t.log"; done
echo "=== done ($(date +%T))"
