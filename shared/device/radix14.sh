#!/bin/bash
# Session 14, one device call (carry .carry/dsl): radix's (8, 256, 4) with push0 + spare for fp32 rows of <= 8192
# columns and few rows (checks.SHORT_C8_MAX_ROWS: 8 when this ran, 16 after its A/B). A/B against (1, 1024, 8) on
# 1-32 rows (radix_iter.py geo_sweep:
# "now" is checks.reg_geometry's pick), then radix's GPU tests that run it (the conformance class, the k edges,
# push0 / relaxed_exit / spare slice edges, the decode grid) beside memcheck and racecheck of the <= 8K cases.
#   bash shared/device/run.sh bash shared/device/radix14.sh
set -u
echo "=== A/B ($(date +%T))"
STAMPS=0 SWEEP=0 RADIX_GEOS="1x8:1,1024,8;4x8:1,1024,8;8x8:1,1024,8;16x8:8,256,4;32x8:8,256,4;1x4:1,1024,8" \
  timeout 60 python3 shared/device/radix_iter.py
echo "=== tests + sanitizers ($(date +%T))"
C="4x3000,3x700,5x8191,2x8192"
for tool in memcheck racecheck; do
  SAN_CASES=$C timeout 150 compute-sanitizer --tool $tool --report-api-errors no \
    python3 shared/device/sanitize_cases.py radix > "$OUT/san-$tool.log" 2>&1 &
done
timeout 170 python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix \
  -k "TestRadix or k_edges or push0 or relaxed_exit or spare or decode_grid" > "$OUT/pytest-radix14.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-radix14.log" | tail -2
grep -E "^(FAILED|ERROR)" "$OUT/pytest-radix14.log" | head -8
wait
for tool in memcheck racecheck; do
  echo "=== $tool"; grep -cE "^ok " "$OUT/san-$tool.log" | sed 's/^/ok cases: /'
  grep -E "FAIL|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/san-$tool.log" | tail -3
done
echo "=== done ($(date +%T))"
