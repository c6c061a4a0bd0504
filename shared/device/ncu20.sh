#!/bin/bash
# Dev only, one device call (Triton only, no carry), session 20: the two-launch path's two kernels on few long rows
# (issue 6's 8x32K and 32x128K): each kernel's duration and warp states, and the filter's and the select's
# barrier-delimited phases (ncu SourceCounters, shared/device/ncu_phases.py).
#   bash shared/device/run.sh bash shared/device/ncu20.sh [ROWSxN ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
cells=${*:-8x32768 32x131072}
for cell in $cells; do
  r=${cell%x*}; n=${cell#*x}
  for kern in filter_kernel select_kernel; do
    echo "=== ncu $cell $kern ($(date +%T))"
    timeout 60 ncu --clock-control none --kernel-name regex:$kern --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section LaunchStats \
      python3 "$here/sgl_warp_ncu.py" $r $n 2>&1 | grep -v "^==PROF==" | \
      grep -E "Duration|Stall (Long|Short|Barrier|Wait|No Inst|Math|LG|MIO)|Warp Cycles Per Issued|Registers|Grid Size|Block Size|Executed Ipc A" | head -16
    timeout 60 ncu --clock-control none --kernel-name regex:$kern --launch-skip 2 --launch-count 1 \
      --section SourceCounters --page source --print-source sass --csv \
      python3 "$here/sgl_warp_ncu.py" $r $n > "$OUT/src_$cell.$kern.csv" 2>/dev/null
    python3 "$here/ncu_phases.py" "$OUT/src_$cell.$kern.csv" | head -24
  done
done
echo "=== done ($(date +%T))"
