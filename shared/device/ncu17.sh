#!/bin/bash
# Dev only, one device call (no carry needed: Triton only), session 17: where sgl_fused's warp path spends its time:
# per cell, the overall warp states (WarpStateStats) and the stall-heaviest SASS lines and per-phase instructions.
#   [KERNEL=resident_kernel] bash shared/device/run.sh bash shared/device/ncu17.sh [cells as ROWSxN[:page] ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
cells=${*:-"128x32768 512x131072 1x8192 4096x8192 4096x8192:page"}
for cell in $cells; do
  shape=${cell%%:*}; r=${shape%x*}; n=${shape#*x}; extra=""; [ "$cell" != "$shape" ] && extra=page
  echo "=== ncu $cell ($(date +%T))"
  timeout 100 ncu --clock-control none --kernel-name regex:${KERNEL:-warp_kernel} --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
    python3 "$here/sgl_warp_ncu.py" $r $n $extra 2>&1 | grep -v "^==PROF==" | grep -E "Duration|Stall|Warp Cycles|Issued|Occupancy|Registers|Throughput|Block Limit|Eligible|Executed Ipc" | head -40
  timeout 100 ncu --clock-control none --kernel-name regex:${KERNEL:-warp_kernel} --launch-skip 2 --launch-count 1 \
    --section SourceCounters --page source --print-source sass --csv \
    python3 "$here/sgl_warp_ncu.py" $r $n $extra > "$OUT/src_$r.$n.$extra.csv" 2>/dev/null
  python3 "$here/ncu_phases.py" "$OUT/src_$r.$n.$extra.csv" | head -40
  python3 "$here/ncu_top.py" "$OUT/src_$r.$n.$extra.csv" 12
done
echo "=== done ($(date +%T))"
