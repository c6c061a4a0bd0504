#!/bin/bash
# Session 35's final checks (carry .carry/dsl, which the bench call then finds): a short A/B for the next session
# (the page table's all_cands picks of 2-12 rows per SM with candidate chunks of 4096, so that more of the chosen
# entries are gathered before the search), then sgl_fused's GPU suite, then memcheck (the page-table cases and the
# regions-per-warp picks) and racecheck (the page-table cases) side by side, each under its own limit. Then, within
# 30 s:
#   bash shared/device/run.sh bash shared/device/check35e.sh
#   TAG=session35 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"512x128K:noold,pick,pickemitapc4096;1024x64K:noold,pick,pickemitapc4096"} \
  timeout ${AB_S:-100} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-80} | grep -v ^RESULT
CASES=${CASES:-130x131072,130x66000,130x24000,400x70000,120x70000,800x66000} bash shared/device/sgl_checks.sh
