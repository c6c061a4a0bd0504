#!/bin/bash
# Prepared in session 19 for the next session (no carry: Triton only), ~120 s: the warp path's bracket by
# interpolation (WarpConfig.bbits = 0, warp._bracket_secant) on the GPU, then A/B against the shipped picks.
#   bash shared/device/run.sh bash shared/device/ab20.sh [ab_seconds]
set -u
ab=${1:-120}
timeout 150 python3 -m pytest -q -p no:cacheprovider packages/topk-sgl-fused/tests/test_warp.py \
  -k "bracket_by_interpolation or select_bits" 2>&1 | tail -3
SGL_PLAN=${SGL_PLAN:-"4096x8K:noold,pick,w4secbrsecx1024,w4secbrseclateoldx1024,pick,w4secbrsecx1024;512x128K:noold,pick,w8secbrsecx4096,w8secbrseclateold;1024x64K:noold,pick,w8secbrsecx4096,w4brseclateold;128x128K:noold,pick,w16brsec,w16secbrseclateold;128x32K:noold,pick,w16brsecx8192,w16brseclateoldx8192"} \
  timeout $((ab + 30)) python3 shared/device/sgl10_bench.py $ab 2>&1 | grep -v "^RESULT" | tail -60
echo "=== done ($(date +%T))"
