#!/bin/bash
# Session 32, no carry: the A/B of the warp picks with every key above the bracket's low bound a candidate
# ("pickallc": ``WarpConfig.all_cands``; "pickallcsec": with the select by interpolation; "pickallcc1024": chunks of
# 1024; "pick" as shipped), every timed input checked exact; then the all_cands tests on the GPU (GPU-size picks):
#   bash shared/device/run.sh bash shared/device/check32a.sh
tests=packages/topk-sgl-fused/tests
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickallc,pickallcsec;128x128K:noold,pick,pickallc,pickallcsec;\
4096x8K:noold,pick,pickallc,pickallcc1024;512x128K:noold,pick,pickallc;1024x64K:noold,pick,pickallc;\
64x32K:noold,pick,pickallc;128x32K:noold,pick,pickallc;128x128Kk512:noold,pick,pickallc;128x128Kbf16:noold,pick,pickallc"} \
  timeout ${AB_S:-300} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-270}
echo "=== all_cands tests on the GPU ($(date +%T))"
timeout ${TEST_S:-150} python3 -m pytest -q -p no:cacheprovider -n 8 -rA $tests/test_warp.py \
  -k "all_cand or fast_path_alone" > "$OUT/pytest-32a.log" 2>&1
echo "rc $?"
bash shared/device/pytest_summary.sh "$OUT/pytest-32a.log"
echo "=== done ($(date +%T))"
