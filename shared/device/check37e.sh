#!/bin/bash
# Session 37, call 6 (no carry): defer_sure on the one-row-per-SM page-table picks (pickds[p][s]) and the streamed
# regions at 2-12 rows per SM (pickpsr[ah1]) against the shipped picks and the same kernels with the identity
# transform (pickpc), every timed input checked exact; then test_warp.py -k defer_sure at GPU sizes.
set -u
SGL_PLAN="128x128K:noold,pick,pickpc,pickds,pickdsp,pickds;128x64K:noold,pick,pickds,pickdsp;128x32K:noold,pick,pickdss,pickdsps;512x128K:noold,pick,pickpc,pickpsr,pickpsrah1;1024x64K:noold,pick,pickpc,pickpsr,pickpsrah1" \
  timeout 300 python3 shared/device/sgl10_bench.py 270 | grep -v ^RESULT
timeout 150 python3 -m pytest -q -p no:cacheprovider packages/topk-sgl-fused/tests/test_warp.py -k defer_sure 2>&1 | tail -3
