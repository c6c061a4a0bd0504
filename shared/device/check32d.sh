#!/bin/bash
# Session 32, no carry: the A/B of the candidate select's packed two-bit steps ("pickqs2"), emit_done ("e") and
# all_cands ("a", chunks "c<C>") on the warp picks (``sgl10_bench.py`` "pickq.."), every timed input checked exact;
# then the select tests on the GPU:
#   bash shared/device/run.sh bash shared/device/check32d.sh
export SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickqs2,pickqs2e,pickqe;64x32K:noold,pick,pickqs2e;150x32K:noold,pick,pickqs2e;\
128x128K:noold,pick,pickqac8192;128x128Kk512:noold,pick,pickqa,pickqac8192;128x128Kbf16:noold,pick,pickqa,pickqac8192;\
512x128K:noold,pick,pickqa,pickqs2ea;1024x64K:noold,pick,pickqa,pickqs2ea;256x128K:noold,pick,pickqa;\
256x32K:noold,pick,pickqa,pickqs2ea;128x64K:noold,pick,pickqa,pickqac8192;128x32K:noold,pick,pickqs2e"}
export TEST_K="all_cand or fast_path_alone or select_bits" LOG=32d
bash shared/device/ab_tests.sh
