#!/bin/bash
# Session 33's final checks (carry .carry/dsl, which the bench call then finds): sgl_fused's GPU suite, then memcheck
# (the page-table cases, 300x70000 now on all_cands with the late pass, and the one-row-per-SM picks) and racecheck
# (the page-table cases) side by side, each under its own limit, after pytest (not beside it: session 32's lesson).
# Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check33e.sh
#   TAG=session33 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
timeout ${TEST_S:-170} python3 -m pytest -q -p no:cacheprovider -n 6 -m gpu packages/topk-sgl-fused > "$OUT/pytest-gpu.log" 2>&1
echo "=== GPU suite: rc $?"
grep -E "passed|failed|error" "$OUT/pytest-gpu.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-gpu.log" | head -12
SAN_CASES=page,${CASES:-130x24000,130x70000,120x70000} timeout ${SAN_S:-170} compute-sanitizer --tool memcheck \
  --report-api-errors no python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-memcheck.log" 2>&1 &
SAN_CASES=page timeout ${SAN_S:-170} compute-sanitizer --tool racecheck --report-api-errors no \
  python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-racecheck.log" 2>&1 &
wait
bash shared/device/san_summary.sh
echo "=== done ($(date +%T))"
