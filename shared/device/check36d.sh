#!/bin/bash
# Session 36: the bracket sample in runs of 16 loaded as vectors, with and without two tiles ahead, on WARP_FEW_LARGE
# (check36c: 128x32K v2 21.4 -> 20.8, page table 21.1 -> 20.1; runs of 16 two tiles ahead v2 20.4), a third round at
# 128x32K and its neighbours; WARP_FEW_LONG with the same sample:
#   bash shared/device/run.sh bash shared/device/check36d.sh
V="noold,pick,pickrun16vec,pickrun16ah2vec,pickrun16ah2"
export SGL_PLAN=${SGL_PLAN:-"128x32K:$V;150x32K:$V;128x24K:$V;128x32Kbf16:$V;128x32K:$V;\
128x128K:noold,pick,pickrun16vec;128x64K:noold,pick,pickrun16vec;128x32Kk512:noold,pick,pickrun16vec,pickrun16ah2vec"}
echo "=== A/B ($(date +%T))"
timeout ${AB_S:-240} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-210} | grep -v ^RESULT
echo "=== done ($(date +%T))"
