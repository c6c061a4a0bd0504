#!/bin/bash
# Session 36: issue 6's 128x32K (v2 22.1, page table 21.5 against 21.3 µs in session 35's run) across the warp pick's
# knobs since the regions per warp changed its stream: two tiles ahead, the sample's size and runs, runs per tile,
# candidate chunks, the guess's slack; two rounds:
#   bash shared/device/run.sh bash shared/device/check36b.sh
V="noold,pick,pickah2,pickrun8x2048,pickrun8x8192,pickrun16,pickrun4,pickw16a1,pickw16a4,pickrun8c1024,pickrun8c4096,\
pickx0g15,pickx0g35"
export SGL_PLAN=${SGL_PLAN:-"128x32K:$V;128x32K:$V"}
echo "=== A/B ($(date +%T))"
timeout ${AB_S:-240} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-210} | grep -v ^RESULT
echo "=== done ($(date +%T))"
