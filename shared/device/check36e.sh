#!/bin/bash
# Session 36: the shipped one-row-per-SM picks (the bracket sample in runs of 16 loaded as vectors; float32
# WARP_FEW_LARGE two tiles ahead) against the same picks as before ("pickold36"), on the cells they cover, including
# those not timed in check36d (bf16 and k = 512 at 128x128K take WARP_FEW_LONG's all_cands config):
#   bash shared/device/run.sh bash shared/device/check36e.sh
V="noold,pick,pickold36"
export SGL_PLAN=${SGL_PLAN:-"128x128Kbf16:$V;128x128Kk512:$V;128x128K:$V;128x32K:$V;128x32Kbf16:$V;150x32K:$V;\
128x64K:$V;120x48K:$V;128x128Kbf16:$V;128x128Kk512:$V;128x32K:$V"}
echo "=== A/B ($(date +%T))"
timeout ${AB_S:-200} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-170} | grep -v ^RESULT
echo "=== done ($(date +%T))"
