#!/bin/bash
# Session 41, the fifth call (carry .carry/dsl): (1) the hinted reference GPU class at GPU scale (check40.sh's run
# failed its test_long_rows: the class was small scale, so that test skipped, which TOPK_REQUIRE_GPU=1 fails),
# test_warp.py -k defer_sure (call 1 ran one of its three tests before its limit) and racecheck of the 14
# sanitize_cases.py gvr cases that check40.sh's racecheck did not reach in 170 s, in two processes; then (2)
# gvr_probe.py (where gvr's time goes: variants beside sgl_fused) on a quiet GPU, as far as the budget goes.
#   bash shared/device/run.sh bash shared/device/check41.sh
set -u
echo "=== reference hinted GPU class, defer_sure tests, racecheck ($(date +%T))"
timeout 170 python3 -m pytest -q -p no:cacheprovider -m gpu packages/topk-core/tests/test_reference_conformance.py \
  -k WithHint > "$OUT/pytest-refhint.log" 2>&1 &
timeout 170 python3 -m pytest -q -p no:cacheprovider packages/topk-sgl-fused/tests/test_warp.py -k defer_sure \
  > "$OUT/pytest-ds.log" 2>&1 &
SAN_CASES=400x70000,3x16000,6x32768,16x65536,8x100000,800x66000,130x131072 timeout 170 compute-sanitizer \
  --tool racecheck --report-api-errors no python3 shared/device/sanitize_cases.py gvr > "$OUT/san-race-a.log" 2>&1 &
SAN_CASES=130x66000,4x30000,32x32768,130x70000,120x70000,300x33000 timeout 170 compute-sanitizer \
  --tool racecheck --report-api-errors no python3 shared/device/sanitize_cases.py gvr > "$OUT/san-race-b.log" 2>&1 &
wait
echo "=== reference hinted:"; grep -E "passed|failed|error" "$OUT/pytest-refhint.log" | tail -2
echo "=== test_warp.py -k defer_sure:"; tail -2 "$OUT/pytest-ds.log"
for f in a b; do
  echo "=== racecheck $f:"; grep -E "^ok |FAIL|refused|RACECHECK SUMMARY" "$OUT/san-race-$f.log"
  echo "    hazards outside torch's own kernels: $(grep -E 'Race reported' "$OUT/san-race-$f.log" | grep -vc 'at::native')"
done
echo "=== gvr_probe ($(date +%T))"
timeout 60 python3 shared/device/gvr_probe.py
echo "=== done ($(date +%T))"
