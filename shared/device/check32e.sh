#!/bin/bash
# Session 32's final checks (carry .carry/dsl, which the bench call then finds): sgl_fused's GPU suite, then
# test_warp.py's select, all_cands and fast-path tests and the GPU-size picks, beside memcheck (the page-table cases,
# two new, and the new picks' cases: all_cands, the packed two-bit select) and racecheck (those cases).
# Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check32e.sh
#   TAG=session32 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
tests=packages/topk-sgl-fused/tests
cases=130x24000,120x70000,800x66000,300x33000,400x70000,130x70000
SAN_CASES=page,$cases timeout ${SAN_S:-420} compute-sanitizer --tool memcheck --report-api-errors no \
  python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-memcheck.log" 2>&1 &
SAN_CASES=$cases timeout ${SAN_S:-420} compute-sanitizer --tool racecheck --report-api-errors no \
  python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-racecheck.log" 2>&1 &
timeout ${TEST_S:-200} python3 -m pytest -q -p no:cacheprovider -n 6 -m gpu packages/topk-sgl-fused > "$OUT/pytest-gpu.log" 2>&1
echo "=== GPU suite: rc $?"
grep -E "passed|failed|error" "$OUT/pytest-gpu.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-gpu.log" | head -12
timeout ${FILES_S:-200} python3 -m pytest -q -p no:cacheprovider -n 6 -rA $tests/test_warp.py \
  -k "select_bits or all_cand or fast_path_alone or gpu_sizes or packed or page_stream" > "$OUT/pytest-files.log" 2>&1
echo "=== test_warp.py select, all_cands, fast path, GPU sizes, packed, page stream: rc $?"
bash shared/device/pytest_summary.sh "$OUT/pytest-files.log"
wait
bash shared/device/san_summary.sh
echo "=== done ($(date +%T))"
