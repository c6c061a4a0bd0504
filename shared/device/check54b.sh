#!/bin/bash
# Session 54, one device call (carry .carry/dsl): the 16-bit regions picks' GPU tests (check54.sh's pytest), then
# check55.sh's compose tests and bench, then memcheck of both (sanitize_lf52.py SET=54; the compose tests), in that
# order, each stage cut to what is left of DEADLINE seconds (default 570) so the call ends inside its limit.
#   bash shared/device/run.sh bash shared/device/check54b.sh
set -u
DEADLINE=${DEADLINE:-570}
. "$(dirname "$0")/deadline.sh"
W=packages/topk-sgl-fused/tests
T="packages/topk-core/tests/test_transform_pass.py tests/test_sgl_compose.py"
P="python3 -m pytest -q -p no:cacheprovider"
echo "=== 16-bit GPU tests ($(date +%T))"
timeout $(left 200) $P $W/test_warp_gpu_sizes.py $W/test_warp.py -k "16bit or defer_sure" > "$OUT/pytest54.log" 2>&1
echo "rc $?"; tail -3 "$OUT/pytest54.log"
echo "=== compose GPU tests ($(date +%T))"
timeout $(left 100) $P $T > "$OUT/pytest55.log" 2>&1
echo "rc $?"; tail -3 "$OUT/pytest55.log"
echo "=== compose_bench dsa ($(date +%T))"
timeout $(left 200) python3 shared/device/compose_bench.py dsa fused,tpass,torch > "$OUT/compose55.log" 2>&1
echo "rc $?"; grep -v "topk bench:" "$OUT/compose55.log" | tail -30
echo "=== memcheck SET=54 ($(date +%T))"
SET=54 timeout $(left 90) compute-sanitizer --tool memcheck --report-api-errors no python3 shared/dev/sanitize_lf52.py \
  > "$OUT/memcheck54.log" 2>&1
echo "rc $?"; grep -E "exact|ERROR SUMMARY|Error|Traceback" "$OUT/memcheck54.log" | tail -6
echo "=== memcheck compose ($(date +%T))"
timeout $(left 80) compute-sanitizer --tool memcheck --report-api-errors no $P $T -k "page_table or ragged" \
  > "$OUT/memcheck55.log" 2>&1
echo "rc $?"; grep -E "passed|failed|ERROR SUMMARY" "$OUT/memcheck55.log" | tail -4
echo "=== done ($(date +%T))"
