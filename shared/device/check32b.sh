#!/bin/bash
# Session 32, no carry: as check32a.sh after the select of all_cands rows bisects within the bracket again (the keys
# above ``hi`` counted first): "pick" against "pickallc" / "pickallcsec" on the issue's cells and neighbours, every
# timed input checked exact; then the all_cands tests on the GPU:
#   bash shared/device/run.sh bash shared/device/check32b.sh
export SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickallc,pickallcsec;128x128K:noold,pick,pickallc,pickallcsec;\
512x128K:noold,pick,pickallc,pickallcsec;1024x64K:noold,pick,pickallc,pickallcsec;4096x8K:noold,pick,pickallc;\
128x128Kk512:noold,pick,pickallc;128x128Kbf16:noold,pick,pickallc;64x32K:noold,pick,pickallc;\
256x32K:noold,pick,pickallc;128x64K:noold,pick,pickallc;256x128K:noold,pick,pickallc;2048x8K:noold,pick,pickallc;\
128x32K:noold,pick,pickallc,pickallcsec"}
export TEST_K="all_cand or fast_path_alone" LOG=32b
bash shared/device/ab_tests.sh
