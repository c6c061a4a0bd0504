#!/bin/bash
# Session 55, one device call (carry .carry/dsl), each stage cut to what is left of DEADLINE seconds (default 540):
# what session 54 left unrun. 1. topk_core.sgl's compose GPU tests (the fixed spy); 2. sgl_fused's test_defer_sure /
# test_config_refused; 3. compose_bench.py dsa with the "model" variant (on an H200: the data to refit COMPOSE_US
# there); 4. racecheck of a 16-bit regions pick; 5. memcheck and racecheck of the compose tests.
# As it ran (call 1 of benchmarks/results/2026-12-06-cuda-session55-iterations.log, commit 5001b6f) it began with
# radix_filter's ``stage`` A/B (find_ab.py) and, had a staged build won, its tests; that step went with ``stage``.
#   DEADLINE=540 bash shared/device/run.sh bash shared/device/check55b.sh
set -u
. "$(dirname "$0")/deadline.sh"
W=packages/topk-sgl-fused/tests
T="packages/topk-core/tests/test_transform_pass.py tests/test_sgl_compose.py"
P="python3 -m pytest -q -p no:cacheprovider"
echo "=== compose GPU tests ($(date +%T))"
timeout $(left 100) $P $T > "$OUT/pytest-compose.log" 2>&1
echo "rc $?"; tail -3 "$OUT/pytest-compose.log"
echo "=== sgl_fused defer_sure / config_refused ($(date +%T))"
timeout $(left 90) $P $W/test_warp.py -k "defer_sure or config_refused" > "$OUT/pytest-warp.log" 2>&1
echo "rc $?"; tail -3 "$OUT/pytest-warp.log"
echo "=== compose_bench dsa ($(date +%T))"
timeout $(left 200) python3 shared/device/compose_bench.py dsa fused,tpass,torch,model > "$OUT/compose.log" 2>&1
echo "rc $?"; grep -v "topk bench:" "$OUT/compose.log" | tail -24
echo "=== racecheck SET=54 1024x65536 ($(date +%T))"
SET=54 SHAPES=1024x65536 timeout $(left 60) compute-sanitizer --tool racecheck python3 shared/dev/sanitize_lf52.py \
  > "$OUT/racecheck-16bit.log" 2>&1
echo "rc $?"; grep -E "exact|RACECHECK SUMMARY|Error|Traceback" "$OUT/racecheck-16bit.log" | tail -6
for tool in memcheck racecheck; do
  echo "=== $tool compose ($(date +%T))"
  timeout $(left 60) compute-sanitizer --tool $tool --report-api-errors no $P $T -k "page_table or ragged" \
    > "$OUT/${tool}-compose.log" 2>&1
  echo "rc $?"; grep -E "passed|failed|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/${tool}-compose.log" | tail -4
done
echo "=== done ($(date +%T))"
