#!/bin/bash
# Session 36's final checks (carry .carry/dsl, which the bench call then finds): sgl_fused's GPU suite, then memcheck
# (the page-table cases and the one-row-per-SM picks whose bracket sample changed: 130x24000 float32 two tiles ahead,
# 128x30000 bf16, 130x66000's plateau and 130x131072) and racecheck (the page-table cases) side by side, each under its
# own limit. Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check36f.sh
#   TAG=session36 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
CASES=${CASES:-130x24000,128x30000,130x66000,130x131072,400x70000} bash shared/device/sgl_checks.sh
