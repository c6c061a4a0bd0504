#!/bin/bash
# Session 32, no carry: the A/B of the warp picks with every key above the bracket's low bound a candidate
# ("pickallc": ``WarpConfig.all_cands``; "pickallcsec": with the select by interpolation; "pickallcc1024": chunks of
# 1024; "pick" as shipped), every timed input checked exact; then the all_cands tests on the GPU (GPU-size picks):
#   bash shared/device/run.sh bash shared/device/check32a.sh
export SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickallc,pickallcsec;128x128K:noold,pick,pickallc,pickallcsec;\
4096x8K:noold,pick,pickallc,pickallcc1024;512x128K:noold,pick,pickallc;1024x64K:noold,pick,pickallc;\
64x32K:noold,pick,pickallc;128x32K:noold,pick,pickallc;128x128Kk512:noold,pick,pickallc;128x128Kbf16:noold,pick,pickallc"}
export TEST_K="all_cand or fast_path_alone" LOG=32a
bash shared/device/ab_tests.sh
