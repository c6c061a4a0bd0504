#!/bin/bash
# Dev only, one device call (no carry), ~150 s, session 16: the two-launch filter's first tile loaded before its
# bracket ("oldearly"), and the read-only floor of one / G programs per row (read_floor.py).
#   bash shared/device/run.sh bash shared/device/ab16c.sh [sgl_s]
set -u
echo "=== sgl_fused bench ($(date +%T))"
export SGL_JSON=sgl16c.json
export SGL_PLAN=${SGL_PLAN:-"8x32K:noold,old,oldearly,oldbissw16early;32x128K:noold,old,oldearly;\
1x32K:noold,old,oldearly;8x128K:noold,old,oldearly"}
timeout $(( ${1:-100} + 20 )) python3 shared/device/sgl10_bench.py ${1:-100} 2>&1 | grep -v "^RESULT"
echo "=== read floor ($(date +%T))"
timeout 60 python3 shared/device/read_floor.py
echo "=== done ($(date +%T))"
