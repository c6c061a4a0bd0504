#!/bin/bash
# Session 19's final call (carry .carry/dsl), ~300-420 s (session 23: the five files need more than 300 s): sgl_fused
# through its GPU suite, test_warp.py / test_split.py / test_resident.py on the GPU (interpreter-marked, so run without -m, in
# parallel workers) and the strided-vector tests, beside memcheck + racecheck of its sanitize_cases.py cases (all 31;
# SAN_CASES=ROWSxN,.. picks some: call 10 ran the 7 the late configs take). The second call, within 30 s:
#   TAG=session19 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
#   [SAN_CASES=..] [SAN_TOOLS=..] [SGL_FILES=..] bash shared/device/run.sh bash shared/device/final19.sh [seconds]
# SGL_FILES replaces the five test files run beside the suite (test_bracket_guess.py since session 22); SAN_TOOLS="" skips the sanitizers (tests_and_san.sh).
# Sessions 17 and 18's final scripts and session 20's check20.sh call this one.
set -u
t=${1:-420}
files=${SGL_FILES:-packages/topk-sgl-fused/tests/test_warp.py packages/topk-sgl-fused/tests/test_split.py \
packages/topk-sgl-fused/tests/test_resident.py packages/topk-sgl-fused/tests/test_bracket_guess.py \
tests/test_strided_vectors.py}
timeout $t python3 -m pytest -q -p no:cacheprovider -n 6 $files > "$OUT/pytest-warp-split.log" 2>&1 &
SAN_S=$t TEST_S=$t bash shared/device/tests_and_san.sh sgl_fused sgl -m gpu packages/topk-sgl-fused
wait
echo "=== $files"
grep -E "passed|failed|error" "$OUT/pytest-warp-split.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-warp-split.log" | head -12
echo "=== done ($(date +%T))"
