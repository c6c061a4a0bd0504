#!/bin/bash
# Session 31, no carry: the GPU tests of 16-bit rows on float32's picks (test_warp's 16-bit GPU sizes, test_split's
# few long rows in every dtype and the page stream), then the A/B of the 16-warp 16-bit warp picks with float32's
# runs per tile ("pick16a2"; "pick" as shipped):
#   bash shared/device/run.sh bash shared/device/check31c.sh
tests=packages/topk-sgl-fused/tests
timeout ${TEST_S:-200} python3 -m pytest -q -p no:cacheprovider -n 8 -rA $tests/test_warp.py $tests/test_split.py \
  -k "16bit or few_long_rows or page_stream" > "$OUT/pytest-31c.log" 2>&1
echo "=== GPU tests: rc $?"
bash shared/device/pytest_summary.sh "$OUT/pytest-31c.log"
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"128x128Kbf16:noold,pick,pick16a2;128x32Kbf16:noold,pick,pick16a2;128x128Kfp16:noold,pick,pick16a2;\
128x128Kbf16:noold,pick,pick16a2"} timeout ${AB_S:-150} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-130}
echo "=== done ($(date +%T))"
