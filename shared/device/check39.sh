#!/bin/bash
# Session 39 (prepared on CPU: no device that session). Three calls:
# 1. (this script, ~5 minutes) sgl_fused's longest_first (``row_order.py``) on the GPU: the order kernel's tests and
#    the warp path's exactness with it (two many-wave picks, the order kernel as the PDL primary and serialized), then
#    memcheck and racecheck of the same tests (none transform) side by side:
#      bash shared/device/run.sh bash shared/device/check39.sh
# 2. The tail probe (carry .carry/dsl for radix_filter): the shipped radix_filter and sgl_fused with seq_lens as
#    drawn, longest first and shortest first, and the 8K row sweep (~4 minutes, mostly compiles):
#      bash shared/device/run.sh python3 shared/device/tail_probe.py 2
# 3. The A/B of the picks with it (~5 minutes; variants "picklf<F>[s]", sgl10_bench.py; F the programs per SM that
#    fit at once, from ptxas on CPU: 4096x8K/2048x8K 4 warps at 80 registers -> 6, 1024x64K 8 warps at 80 -> 3,
#    512x128K 8 warps at 119 (page) -> 2; "s" sorts every row, serialized):
#   SGL_PLAN="4096x8K:noold,pick,picklf6,picklf3,picklf0s;1024x64K:noold,pick,picklf3,picklf1,picklf0s;512x128K:noold,pick,picklf2,picklf1,picklf0s;2048x8K:noold,pick,picklf6" \
#     bash shared/device/run.sh python3 shared/device/sgl10_bench.py 420
set -u
bash "$(dirname "$0")/sgl_lf_tests.sh" 200 170  # the tests, then memcheck and racecheck of them
echo "=== done ($(date +%T))"
