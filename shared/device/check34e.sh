#!/bin/bash
# Session 34's final checks (carry .carry/dsl, which the bench call then finds): a short A/B for the next session
# (the page table's early gathers on the 16-bit and k = 512 picks of one long row per SM, which keep the late pass),
# then sgl_fused's GPU suite, then memcheck (the page-table cases, 300x70000 and 900x66000 now applying the table as
# the select emits; 400x70000 v2 two tiles ahead; the one-row-per-SM picks) and racecheck (the page-table cases)
# side by side, each under its own limit. Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check34e.sh
#   TAG=session34 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"128x128Kbf16:noold,pick,pickemitp;128x128Kk512:noold,pick,pickemitp"} \
  timeout ${AB_S:-100} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-80} | grep -v ^RESULT
CASES=${CASES:-400x70000,130x24000,130x70000,120x70000} bash shared/device/sgl_checks.sh
