#!/bin/bash
# Session 15, call 3 (carry .carry/dsl): radix 0.6.0's GPU tests (side rows, (8, 256, 8) for 8K-16K rows: the
# conformance class, slice edges with push0 / spare / relaxed_exit, the decode grid) beside memcheck and racecheck
# of the cases that take them (6x12001 on (8, 256, 8), 32x131072 split 30 + 2).
#   bash shared/device/run.sh bash shared/device/iter15c.sh
set -u
echo "=== tests + sanitizers ($(date +%T))"
for tool in memcheck racecheck; do
  SAN_CASES=6x12001,32x131072 timeout 240 compute-sanitizer --tool $tool --report-api-errors no \
    python3 shared/device/sanitize_cases.py radix > "$OUT/san-$tool.log" 2>&1 &
done
timeout 250 python3 -m pytest -q -p no:cacheprovider packages/topk-radix/tests/test_side_rows.py \
  packages/topk-radix/tests/test_checks.py packages/topk-radix/tests/test_conformance.py \
  -k "side or checks or TestRadix or k_edges or push0 or relaxed_exit or spare or decode_grid" > "$OUT/pytest-radix15.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-radix15.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-radix15.log" | head -12
wait
for tool in memcheck racecheck; do
  echo "=== $tool"; grep -E "^ok |FAIL|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/san-$tool.log" | tail -4
done
echo "=== done ($(date +%T))"
