#!/bin/bash
# Session 35: regions per warp for the sure columns and candidates of the packed picks without all_cands ("pickwrs";
# "pickwrsp" every bisection pick given pack_cands), two rounds on 128x32K; the shipped all_cands regions once more on
# 512x128K ("pickwrax": without them) and the page table's picks with the identity transform ("pickpc", issue 6's 5%
# bound); then test_warp_regions on the GPU:
#   bash shared/device/run.sh bash shared/device/check35d.sh
export SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickwrs;128x128K:noold,pick,pickwrsp;4096x8K:noold,pick,pickwrsp;\
512x32K:noold,pick,pickwrsp;512x128K:noold,pick,pickpc,pickwrax;1024x64K:noold,pick,pickpc;256x128K:noold,pick,pickpc;\
128x32K:noold,pick,pickwrs;150x32K:noold,pick,pickwrs"}
export TEST_K="warp_regions" LOG=35d AB_S=230 AB_BUDGET=200 TEST_S=150
bash shared/device/ab_tests.sh
