#!/bin/bash
# Session 36: the bracket sample's runs on WARP_FEW_LARGE (check36b: runs of 16 gained ~0.45 µs at 128x32K): longer
# runs, more samples, vector loads, two tiles ahead; two rounds at 128x32K, one at 150x32K and 120x40K:
#   bash shared/device/run.sh bash shared/device/check36c.sh
V="noold,pick,pickrun16,pickrun32,pickrun64,pickrun16x8192,pickrun32x8192,pickrun16vec,pickrun32vec,pickrun16ah2"
export SGL_PLAN=${SGL_PLAN:-"128x32K:$V;128x32K:$V;150x32K:noold,pick,pickrun16,pickrun32;\
120x40K:noold,pick,pickrun16,pickrun32"}
echo "=== A/B ($(date +%T))"
timeout ${AB_S:-240} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-210} | grep -v ^RESULT
echo "=== done ($(date +%T))"
