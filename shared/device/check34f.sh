#!/bin/bash
# Session 34, after the committed run, no carry (prepared for the next session): the select's first candidate chunk
# emitted from the registers of its first load ("pickk0": ``first_chunk_regs``; "pickk0a" with all_cands) on the
# warp picks, two rounds on 128x32K and 4096x8K; then test_first_chunk_regs on the GPU:
#   bash shared/device/run.sh bash shared/device/check34f.sh
export SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickk0,pickk0a;128x128K:noold,pick,pickk0;4096x8K:noold,pick,pickk0;\
512x128K:noold,pick,pickk0;1024x64K:noold,pick,pickk0;64x32K:noold,pick,pickk0;128x32K:noold,pick,pickk0;\
4096x8K:noold,pick,pickk0"}
export TEST_K="first_chunk_regs" LOG=34f AB_S=200 AB_BUDGET=170 TEST_S=120
bash shared/device/ab_tests.sh
