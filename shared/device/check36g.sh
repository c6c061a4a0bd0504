#!/bin/bash
# Session 36: memcheck on the one-row-per-SM picks whose bracket sample changed, without the page-table and windowed
# cases (check36f's memcheck ran out of time before them): float32 WARP_FEW_LARGE two tiles ahead (130x24000), bf16
# WARP_FEW_LARGE_16 (128x30000), WARP_FEW_LONG (130x66000's plateau, 130x131072):
#   bash shared/device/run.sh bash shared/device/check36g.sh
SAN_CASES=cases,130x24000,128x30000,130x66000,130x131072 timeout ${SAN_S:-200} compute-sanitizer --tool memcheck \
  --report-api-errors no python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-memcheck.log" 2>&1
echo "rc $?"
grep -E "^ok |FAIL|ERROR SUMMARY" "$OUT/san-memcheck.log" | tail -20
