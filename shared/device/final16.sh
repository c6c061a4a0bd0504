#!/bin/bash
# Final GPU call of session 16 (carry .carry/dsl), ~420 s:
#  1. in parallel: sgl_fused's GPU suite (its kernels moved: bisect_select.py; new split options bisect/early),
#     memcheck + racecheck of its sanitize_cases.py cases, and the strided-vector tests over every backend;
#  2. then, alone on the GPU: the split path's A/B in alternating rounds (sgl10_bench) and read_floor.py.
#   bash shared/device/run.sh bash shared/device/final16.sh [test_s] [bench_s]
set -u
TOPK_CACHE_DIR=/tmp/topk-cache-strided timeout ${1:-220} python3 -m pytest -q -p no:cacheprovider \
  tests/test_strided_vectors.py packages/topk-radix/tests/test_conformance.py::test_strided_seq_lens \
  > "$OUT/pytest-strided.log" 2>&1 &
SAN_S=${1:-220} TEST_S=${1:-220} bash shared/device/tests_and_san.sh sgl_fused sgl -m gpu packages/topk-sgl-fused
wait
echo "=== strided"; grep -E "passed|failed|error" "$OUT/pytest-strided.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-strided.log" | head -8
echo "=== sgl_fused split A/B, two rounds ($(date +%T))"
export SGL_JSON=sgl16final.json
R="old,oldbissw16early,oldbis,oldearly"
export SGL_PLAN=${SGL_PLAN:-"8x32K:noold,$R,$R;1x32K:noold,$R,$R;32x32K:noold,$R,$R;8x16K:noold,$R,$R;\
8x128K:noold,$R,$R"}
timeout $(( ${2:-130} + 20 )) python3 shared/device/sgl10_bench.py ${2:-130} 2>&1 | grep -v "^RESULT"
echo "=== read floor ($(date +%T))"
timeout 60 python3 shared/device/read_floor.py
echo "=== done ($(date +%T))"
