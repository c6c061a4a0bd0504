#!/bin/bash
# Session 33, no carry: the page table on 2-12 rows per SM of long rows: "pickqal" (all_cands, late pass; call 1:
# 512x128K 184.8 -> 167.8) against "pickvl[b]" (the identity transform's pick with the late pass); 128x32K's candidate
# chunks of 4096 ("pickqc4096": its longest rows' brackets pass 2048 candidates) and an 8192-key sample in runs of 8;
# then the all_cands tests on the GPU:
#   bash shared/device/run.sh bash shared/device/check33b.sh
export SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickqc4096,pickrun8x8192,pickrun8x8192c4096;\
512x128K:noold,pick,pickqal,pickvl,pickvlb;1024x64K:noold,pick,pickvl,pickvlb;256x128K:noold,pick,pickqal,pickvl;\
300x64K:noold,pick,pickqal,pickvl;128x32K:noold,pick,pickqc4096,pickrun8x8192;150x32K:noold,pick,pickqc4096;\
64x32K:noold,pick,pickqc4096;512x128K:noold,pick,pickqal,pickvl"}
export TEST_K="all_cand" LOG=33b
bash shared/device/ab_tests.sh
