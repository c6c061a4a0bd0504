#!/bin/bash
# Session 67 (carry .carry/dsl), any card: the racecheck of the 14 sgl_fused kit cases no racecheck has reached
# (stages.sh's sgl_race_rest), then SHORT_MANY's time against its row count at 8K columns with what is left
# (rows_scan.py: the per-row slope and the fixed cost of a launch's ends, for 4096x8K's floor bar).
#   TOPK_COMMIT=<hash> DEADLINE=300 bash shared/device/run.sh bash shared/device/check67c.sh
set -u
. "$(dirname "$0")/stages.sh"
sgl_race_rest
echo "=== rows_scan ($(date +%T))"
timeout $(left 100) python3 shared/device/rows_scan.py radix_filter:SHORT_MANY 8192 ${SCAN_ROWS:-792,1584,2376,3168,4096,4752}
echo "=== done ($(date +%T))"
