#!/bin/bash
# Session 31, no carry: the bracket guessed for k a small share of the row too (``r_hi < 1``: the top key for hi;
# before, such rows always bisected), A/B "pick" against "pickg0" (never guessed: what those rows ran before), then
# test_bracket_guess.py and the 16-bit warp picks on the GPU:
#   bash shared/device/run.sh bash shared/device/check31d.sh
tests=packages/topk-sgl-fused/tests
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"128x128Kk512:noold,pick,pickg0;1x128Kk512:noold,pick,pickg0;32x128Kk512:noold,pick,pickg0;\
8x64Kk256:noold,pick,pickg0;128x32Kk128:noold,pick,pickg0;128x128Kk512bf16:noold,pick,pickg0;\
128x128Kk512:noold,pick,pickg0;1x128Kk512:noold,pick,pickg0"} timeout ${AB_S:-150} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-130}
timeout ${TEST_S:-150} python3 -m pytest -q -p no:cacheprovider -n 8 -rA $tests/test_bracket_guess.py $tests/test_warp.py \
  -k "guess or 16bit" > "$OUT/pytest-31d.log" 2>&1
echo "=== GPU tests: rc $?"
bash shared/device/pytest_summary.sh "$OUT/pytest-31d.log"
echo "=== done ($(date +%T))"
