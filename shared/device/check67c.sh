#!/bin/bash
# Session 67, check67b.sh's stages in the other order for a short call (carry .carry/dsl), any card: the racecheck of
# the 14 sgl_fused kit cases first, then rows_scan.py with what is left.
#   TOPK_COMMIT=<hash> DEADLINE=300 bash shared/device/run.sh bash shared/device/check67c.sh
set -u
. "$(dirname "$0")/stages.sh"
sanitize sgl_fused "racecheck 1700x9000,130x24000,128x30000,400x70000,130x66000" \
  "racecheck 32x32768,16x65536,130x70000,8x100000" \
  "racecheck 120x70000,800x66000,300x33000,130x131072"
echo "=== rows_scan ($(date +%T))"
timeout $(left 100) python3 shared/device/rows_scan.py radix_filter:SHORT_MANY 8192 ${SCAN_ROWS:-792,1584,2376,3168,4096,4752}
echo "=== done ($(date +%T))"
