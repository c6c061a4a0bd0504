#!/bin/bash
# Session 37, call 3 (carry .carry/dsl): where radix_filter's 4096x8K waits: ncu's speed-of-light, memory workload
# and warp-state sections (the L1's load/store traffic of pass 1's scattered index stores), then find_ab's
# 128-thread SHORT_MANY against the shipped one at 4096x8K and 2048x8K.
set -u
here=$(cd "$(dirname "$0")" && pwd)
timeout 150 ncu --clock-control none --kernel-name regex:kernel --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
  --section WarpStateStats --section LaunchStats --section Occupancy \
  python3 "$here/rf_profile.py" 4096 8192 2>&1 | grep -v "^==PROF==" | grep -vE "^\s*-+\s*$|^\s*$" | cut -c1-150 | head -150
FIND_CELLS=6,16 FIND_AB=t128,t128c1 timeout 300 python3 "$here/find_ab.py"
