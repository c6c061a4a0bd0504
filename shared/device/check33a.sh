#!/bin/bash
# Session 33, no carry: issue 6's 5% bound at 512x128K and 1024x64K: "pickpc" (v2 and ragged on the page table's
# pick: the same kernel with the identity transform), "pickqal" (all_cands with the page table over the k slots at
# the end, not streamed), "pickql" (the late pass alone); 512x32K re-timed after e88f33e; then the all_cands tests
# (the late pass new) on the GPU:
#   bash shared/device/run.sh bash shared/device/check33a.sh
export SGL_PLAN=${SGL_PLAN:-"512x128K:noold,pick,pickpc,pickqal;1024x64K:noold,pick,pickpc,pickqal,pickql;\
512x32K:noold,pick;256x128K:noold,pick,pickpc,pickqal;512x128K:noold,pick,pickqal;1024x64K:noold,pick,pickqal,pickql;\
4096x8K:noold,pick,pickpc"}
export TEST_K="all_cand" LOG=33a
bash shared/device/ab_tests.sh
