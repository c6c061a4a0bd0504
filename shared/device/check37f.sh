#!/bin/bash
# Prepared in session 37 (not run: no device after call 6) for the session that ships defer_sure (NOTES.md).
# Final checks (carry .carry/dsl, which the bench call then finds): sgl_fused's GPU suite, then memcheck
# and racecheck of the page-table cases (130x131072 runs defer_sure) beside test_warp.py -k defer_sure at GPU sizes.
# Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check37f.sh
#   TAG=session37 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
set -u
echo "=== GPU suite ($(date +%T))"
timeout 150 python3 -m pytest -q -p no:cacheprovider -n 6 -m gpu packages/topk-sgl-fused > "$OUT/pytest-gpu.log" 2>&1
echo "=== GPU suite: rc $?"
grep -E "passed|failed|error" "$OUT/pytest-gpu.log" | tail -2
SAN_CASES=page timeout 150 compute-sanitizer --tool memcheck --report-api-errors no \
  python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-memcheck.log" 2>&1 &
SAN_CASES=page timeout 150 compute-sanitizer --tool racecheck --report-api-errors no \
  python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-racecheck.log" 2>&1 &
timeout 160 python3 -m pytest -q -p no:cacheprovider packages/topk-sgl-fused/tests/test_warp.py -k defer_sure \
  > "$OUT/pytest-ds.log" 2>&1 &
wait
bash shared/device/san_summary.sh
echo "=== test_warp.py -k defer_sure:"; tail -2 "$OUT/pytest-ds.log"
echo "=== done ($(date +%T))"
