#!/bin/bash
# Session 16, first call of the final warm pair (carry .carry/dsl), ~240 s: sgl_fused's GPU suite and memcheck +
# racecheck of its sanitize_cases.py cases on the new default for a few rows of 32K-128K columns (split path:
# 16-warp bisection select, early filter tile). The second call, within 30 s:
#   TAG=session16 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
#   bash shared/device/run.sh bash shared/device/final16b.sh [test_s]
set -u
SAN_S=${1:-220} TEST_S=${1:-220} bash shared/device/tests_and_san.sh sgl_fused sgl -m gpu packages/topk-sgl-fused
