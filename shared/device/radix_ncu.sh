#!/bin/bash
# Dev only, one device call (carry .carry/dsl): ncu of radix's register kernel per cell: time,
# instructions, issue activity and the warp stall reasons (per issued instruction), on the
# third call of each cell (compiled, warm).
#   bash shared/device/run.sh bash shared/device/radix_ncu.sh [CELL...]
set -u
for cell in ${@:-1x8192 1x32768 1x131072}; do
  echo "=== ncu $cell"
  timeout 90 ncu --clock-control none --kernel-name regex:ClusterRegTopK --launch-skip 2 --launch-count 1 \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio \
    python3 shared/device/radix_profile.py $cell 2>&1 | grep -v "^==PROF==" | grep -E "^\s+(gpu__|sm__|smsp__)" | awk '$NF+0 > 0.05 || /gpu__|sm__cycles|inst_exec|issue_active|warps_active/'
done
