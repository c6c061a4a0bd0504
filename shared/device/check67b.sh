#!/bin/bash
# Session 67 (carry .carry/dsl), any card: SHORT_MANY's time against its row count at 8K columns (rows_scan.py:
# the per-row slope and the fixed cost of a launch's ends, for 4096x8K's floor bar), varlen and full rows; then
# check67.sh's racecheck of the 14 sgl_fused kit cases no racecheck has reached.
#   TOPK_COMMIT=<hash> DEADLINE=380 bash shared/device/run.sh bash shared/device/check67b.sh
set -u
. "$(dirname "$0")/stages.sh"
echo "=== rows_scan ($(date +%T))"
timeout $(left 120) python3 shared/device/rows_scan.py radix_filter:SHORT_MANY 8192 ${SCAN_ROWS:-792,1584,2376,3168,4096,4752}
timeout $(left 60) python3 shared/device/rows_scan.py radix_filter:SHORT_MANY 8192 ${FULL_ROWS:-1584,3168,4096} full
sanitize sgl_fused "racecheck 1700x9000,130x24000,128x30000,400x70000,130x66000" \
  "racecheck 32x32768,16x65536,130x70000,8x100000" \
  "racecheck 120x70000,800x66000,300x33000,130x131072"
echo "=== done ($(date +%T))"
