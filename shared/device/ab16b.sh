#!/bin/bash
# Dev only, one device call (no carry needed), ~200 s, session 16: the two-launch path's select by bisection
# (sgl10_bench "oldbis"), and ncu's time of its filter and select kernels apart on the few-row cells.
#   bash shared/device/run.sh bash shared/device/ab16b.sh [sgl_s]
set -u
echo "=== sgl_fused bench ($(date +%T))"
export SGL_JSON=sgl16b.json
export SGL_PLAN=${SGL_PLAN:-"8x32K:noold,old,oldbis,oldsw16,oldbissw16;32x128K:noold,old,oldbis,oldbissw16;\
1x32K:noold,old,oldbis;8x128K:noold,old,oldbis"}
timeout $(( ${1:-120} + 20 )) python3 shared/device/sgl10_bench.py ${1:-120} 2>&1 | grep -v "^RESULT"
echo "=== ncu ($(date +%T))"
for cell in "8 32768" "32 131072"; do
  for b in "" bisect; do
    echo "--- $cell $b"
    timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"filter_kernel|select_kernel" \
      python3 shared/device/sgl_split_ncu.py $cell $b 2>&1 | grep -E "filter_kernel|select_kernel|duration" | tail -12
  done
done
echo "=== done ($(date +%T))"
