#!/bin/bash
# Session 31's final checks (carry .carry/dsl, which the bench call then finds): sgl_fused's GPU suite, then the
# few-long-row picks in every dtype (test_split.py), test_windows.py and test_bracket_guess.py, beside memcheck (the
# page-table cases, 16-bit ones new, the windowed cases and four new or newly routed cases) and racecheck (the
# windowed cases and those four).
# Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check31e.sh
#   TAG=session31 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
tests=packages/topk-sgl-fused/tests
cases=130x70000,8x100000,300x20000,4x70001
SAN_CASES=windows,page,$cases timeout ${SAN_S:-420} compute-sanitizer --tool memcheck --report-api-errors no \
  python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-memcheck.log" 2>&1 &
SAN_CASES=windows,$cases timeout ${SAN_S:-420} compute-sanitizer --tool racecheck --report-api-errors no \
  python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-racecheck.log" 2>&1 &
timeout ${TEST_S:-200} python3 -m pytest -q -p no:cacheprovider -n 6 -m gpu packages/topk-sgl-fused > "$OUT/pytest-gpu.log" 2>&1
echo "=== GPU suite: rc $?"
grep -E "passed|failed|error" "$OUT/pytest-gpu.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-gpu.log" | head -12
timeout ${FILES_S:-200} python3 -m pytest -q -p no:cacheprovider -n 6 -rA $tests/test_windows.py $tests/test_split.py \
  $tests/test_bracket_guess.py -k "windows or stride_unit or aligned or few_long_rows or guess" \
  > "$OUT/pytest-files.log" 2>&1
echo "=== test_windows.py, test_split.py few long rows, test_bracket_guess.py: rc $?"
bash shared/device/pytest_summary.sh "$OUT/pytest-files.log"
wait
bash shared/device/san_summary.sh
echo "=== done ($(date +%T))"
