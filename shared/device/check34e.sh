#!/bin/bash
# Session 34's final checks (carry .carry/dsl, which the bench call then finds): a short A/B for the next session
# (the page table's early gathers on the 16-bit and k = 512 picks of one long row per SM, which keep the late pass),
# then sgl_fused's GPU suite, then memcheck (the page-table cases, 300x70000 and 900x66000 now applying the table as
# the select emits; 400x70000 v2 two tiles ahead; the one-row-per-SM picks) and racecheck (the page-table cases)
# side by side, each under its own limit. Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check34e.sh
#   TAG=session34 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"128x128Kbf16:noold,pick,pickemitp;128x128Kk512:noold,pick,pickemitp"} \
  timeout ${AB_S:-100} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-80} | grep -v ^RESULT
echo "=== GPU suite ($(date +%T))"
timeout ${TEST_S:-170} python3 -m pytest -q -p no:cacheprovider -n 6 -m gpu packages/topk-sgl-fused > "$OUT/pytest-gpu.log" 2>&1
echo "=== GPU suite: rc $?"
grep -E "passed|failed|error" "$OUT/pytest-gpu.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-gpu.log" | head -12
SAN_CASES=page,${CASES:-400x70000,130x24000,130x70000,120x70000} timeout ${SAN_S:-170} compute-sanitizer --tool memcheck \
  --report-api-errors no python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-memcheck.log" 2>&1 &
SAN_CASES=page timeout ${SAN_S:-170} compute-sanitizer --tool racecheck --report-api-errors no \
  python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-racecheck.log" 2>&1 &
wait
bash shared/device/san_summary.sh
echo "=== done ($(date +%T))"
