#!/bin/bash
# Session 14, one device call (carry .carry/dsl): radix's (8, 256, 4) with push0 + spare for fp32 rows of <= 8192
# columns and few rows (checks.SHORT_C8_MAX_ROWS: 8 when this ran, 16 after its A/B). A/B against (1, 1024, 8) on
# 1-32 rows (radix_iter.py geo_sweep:
# "now" is checks.reg_geometry's pick), then radix's GPU tests that run it (the conformance class, the k edges,
# push0 / relaxed_exit / spare slice edges, the decode grid) beside memcheck and racecheck of the <= 8K cases.
#   bash shared/device/run.sh bash shared/device/radix14.sh
set -u
echo "=== A/B ($(date +%T))"
STAMPS=0 SWEEP=0 RADIX_GEOS="1x8:1,1024,8;4x8:1,1024,8;8x8:1,1024,8;16x8:8,256,4;32x8:8,256,4;1x4:1,1024,8" \
  timeout 60 python3 shared/device/radix_iter.py
echo "=== tests + sanitizers ($(date +%T))"
SAN_CASES="4x3000,3x700,5x8191,2x8192" bash shared/device/tests_and_san.sh radix radix14 -m gpu packages/topk-radix \
  -k "TestRadix or k_edges or push0 or relaxed_exit or spare or decode_grid"
echo "=== done ($(date +%T))"
