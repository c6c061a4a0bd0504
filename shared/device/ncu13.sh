#!/bin/bash
# Dev only, one device call (carry .carry/dsl), ~150 s: where the shipped kernels' time goes after session 13, for
# the next session: radix_filter 4096x8K (sparse1) executed instructions per barrier-delimited phase and the
# stall-heaviest SASS lines; radix 1x128K (C=16) and 1x8K (C=1) time, instructions, issue activity, stall reasons.
#   bash shared/device/run.sh bash shared/device/ncu13.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
echo "=== ncu radix_filter 4096 8192 ($(date +%T))"
timeout 100 ncu --clock-control none --kernel-name regex:kernel --launch-skip 2 --launch-count 1 \
  --section SourceCounters --page source --print-source sass --csv \
  python3 "$here/rf_profile.py" 4096 8192 > "$OUT/src_4096x8192.csv" 2>/dev/null
python3 "$here/ncu_phases.py" "$OUT/src_4096x8192.csv"
python3 "$here/ncu_top.py" "$OUT/src_4096x8192.csv" 15
echo "=== radix ($(date +%T))"
timeout 100 bash "$here/radix_ncu.sh" 1x131072 1x8192
echo "=== done ($(date +%T))"
