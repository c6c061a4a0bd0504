#!/bin/bash
# Session 35: all_cands' candidates appended to a region per warp (``warp_regions``: no block-wide scan or barrier in
# the stream loop; "pickwr" on the all_cands picks, "pickwra" every bisection pick forced to all_cands, "pickwrax" the
# same without the regions), two rounds on 128x32K; then test_warp_regions on the GPU:
#   bash shared/device/run.sh bash shared/device/check35c.sh
export SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickwrax,pickwra;512x128K:noold,pick,pickwr;1024x64K:noold,pick,pickwr;\
128x128K:noold,pick,pickwrax,pickwra;128x128Kbf16:noold,pick,pickwr;128x128Kk512:noold,pick,pickwr;\
256x128K:noold,pick,pickwr;128x32K:noold,pick,pickwrax,pickwra;512x128K:noold,pick,pickwr"}
export TEST_K="warp_regions" LOG=35c AB_S=230 AB_BUDGET=200 TEST_S=150
bash shared/device/ab_tests.sh
