#!/bin/bash
# Session 15, call 2 (carry .carry/dsl): radix's side rows (side.py): A/B against one kernel and radix_filter,
# its GPU tests beside memcheck of the 32x128K case, then (8, 256, 8) for 16K rows.
#   bash shared/device/run.sh bash shared/device/iter15b.sh
set -u
echo "=== side A/B ($(date +%T))"
timeout 170 python3 shared/device/side_ab.py
echo "=== tests + memcheck ($(date +%T))"
SAN_CASES=32x131072 timeout 170 compute-sanitizer --tool memcheck --report-api-errors no \
  python3 shared/device/sanitize_cases.py radix > "$OUT/san-memcheck.log" 2>&1 &
timeout 170 python3 -m pytest -q -p no:cacheprovider packages/topk-radix/tests/test_side_rows.py \
  packages/topk-radix/tests/test_checks.py > "$OUT/pytest-side.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-side.log" | tail -2
grep -E "^(FAILED|ERROR)|Error|assert" "$OUT/pytest-side.log" | head -12
wait
echo "=== memcheck"; grep -E "^ok |FAIL|ERROR SUMMARY" "$OUT/san-memcheck.log" | tail -4
echo "=== 16K rows ($(date +%T))"
STAMPS=0 SWEEP=0 RADIX_GEO_FLAGS="push0=1,spare=1" \
  RADIX_GEOS="1x12:8,256,8;4x16:8,256,8;8x16:8,256,8;16x16:8,256,8;32x16:8,256,8" \
  timeout 90 python3 shared/device/radix_iter.py
echo "=== done ($(date +%T))"
