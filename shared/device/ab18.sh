#!/bin/bash
# Prepared in session 17 (not yet run), one device call (no carry needed: Triton only), ~90 s: sgl_fused's warp path
# with the bracket on 12 (or 10) prefix bits (``WarpConfig.bracket_bits``: 12 bisection steps instead of 16; ncu put
# the code before the stream loop, mostly the bracket, at ~35% of 4096x8K's instructions) beside the shipped configs.
#   bash shared/device/run.sh bash shared/device/ab18.sh [seconds]
set -u
export SGL_PLAN=${SGL_PLAN:-"4096x8K:noold,w4x1024,w4x1024pb12,w4x1024pb10,w4lateoldx1024,w4lateoldx1024pb12;\
128x32K:noold,w16x8192,w16x8192pb12;1x8K:noold,w8,w8pb12;512x128K:noold,w8,w8pb12,w8lateold,w8lateoldpb12;\
1024x64K:noold,w8,w8pb12,w4lateold,w4lateoldpb12;128x128K:noold,w16,w16pb12"}
timeout $(( ${1:-200} + 20 )) python3 shared/device/sgl10_bench.py ${1:-200} 2>&1 | grep -v "^RESULT"
