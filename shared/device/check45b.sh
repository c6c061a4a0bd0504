#!/bin/bash
# Session 45, after longest_first shipped in radix_filter's plan (SHORT_MANY lf3, LIGHT lf1, MANY_ROWS_F32 lf1):
# its GPU tests through the public API (eager and graph replay) and the ordered entries, the A/B against the
# plan without it ("nolf"), then beside each other: sgl_fused's fixed test_launch_order with the ragged
# test_longest_first (call 1 ran out of time before it), and memcheck of the new API test. Carry .carry/dsl:
#   bash shared/device/run.sh bash shared/device/check45b.sh
set -u
echo "=== radix_filter planned longest_first tests ($(date +%T))"
timeout 180 python3 -m pytest -q -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py \
  -k "planned_longest or planned_order or batch_shapes or api_smoke or longest_first" > "$OUT/pytest-rf.log" 2>&1
echo "=== rc $?"; tail -3 "$OUT/pytest-rf.log"
echo "=== find_ab nolf ($(date +%T))"
FIND_AB=${FIND_AB:-nolf} FIND_CELLS=${FIND_CELLS:-6,16,7,5} timeout 90 python3 shared/device/find_ab.py
echo "=== sgl_fused tests + memcheck of radix_filter's API test ($(date +%T))"
timeout 150 python3 -m pytest -q -p no:cacheprovider packages/topk-sgl-fused/tests/test_row_order.py \
  packages/topk-sgl-fused/tests/test_warp.py -k "launch_order or (longest_first and ragged)" > "$OUT/pytest-sgl.log" 2>&1 &
timeout 150 compute-sanitizer --tool memcheck --report-api-errors no python3 -m pytest -q -p no:cacheprovider \
  packages/topk-radix-filter/tests/test_conformance.py -k "planned_longest and balanced and (SHORT or LIGHT)" \
  > "$OUT/san-rf.log" 2>&1 &
wait
echo "=== sgl_fused:"; tail -3 "$OUT/pytest-sgl.log"
echo "=== memcheck:"; grep -E "ERROR SUMMARY|passed|failed" "$OUT/san-rf.log" | tail -3
echo "=== done ($(date +%T))"
