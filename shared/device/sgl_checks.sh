#!/bin/bash
# sgl_fused's final checks (sessions 33-34): the GPU suite, then memcheck (the page-table cases and $CASES) and
# racecheck (the page-table cases) side by side, each under its own limit, after pytest (not beside it: session
# 32's lesson). Called by check33e.sh / check34e.sh inside `bash shared/device/run.sh ...`.
echo "=== GPU suite ($(date +%T))"
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
