#!/bin/bash
# Dev only, one device call (carry .carry/dsl): ncu of radix_filter per shape: time, instructions,
# issue activity, warp stall reasons per issued instruction, L1/DRAM traffic; then the SASS lines
# with the most stall samples (SourceCounters), summarized by ncu_top.py.
#   bash shared/device/run.sh bash shared/device/rf_ncu.sh ["ROWS N" ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
for cell in "${@:-32 32768}"; do
  echo "=== ncu radix_filter $cell"
  timeout 90 ncu --clock-control none --kernel-name regex:kernel --launch-skip 2 --launch-count 1 \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active,dram__bytes_read.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio \
    python3 "$here/rf_profile.py" $cell 2>&1 | grep -v "^==PROF==" | grep -E "^\s+(gpu__|sm__|smsp__|dram__|l1tex__)|rf_profile" \
    | awk '$NF+0 > 0.05 || /gpu__|sm__cycles|inst_exec|issue_active|warps_active|dram|l1tex|rf_profile/'
  tag=$(echo $cell | tr ' ' x)
  timeout 120 ncu --clock-control none --kernel-name regex:kernel --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --page source --print-source sass --csv \
    python3 "$here/rf_profile.py" $cell > "$OUT/src_$tag.csv" 2>/dev/null
  python3 "$here/ncu_top.py" "$OUT/src_$tag.csv" 45
done
