#!/bin/bash
# Session 30's final checks (carry .carry/dsl, which the bench call then finds): sgl_fused's GPU suite beside
# memcheck + racecheck of the page-table cases and of the windowed cases (sanitize_cases.py WINDOW_CASES: row_starts
# 0-7 in buffers of N + 4 / N + 8 columns, through v2, ragged and the page table). Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check30c.sh
#   TAG=session30 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
SAN_CASES=${SAN_CASES:-none} SAN_S=${SAN_S:-170} TEST_S=${TEST_S:-150} WORKERS=8 bash shared/device/sgl_check.sh
echo "=== done ($(date +%T))"
