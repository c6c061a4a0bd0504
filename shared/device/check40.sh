#!/bin/bash
# Session 40 (prepared on CPU: no device that session). The gvr backend (topk-gvr 0.1.0: sgl_fused's two-launch
# path with its bracket from the pre_idx hint) and the scratch-growth fix (topk-core 0.2.1) on the GPU. Two calls:
# 1. (this script, carry .carry/dsl so that every backend's scratch-growth test runs, ~6 minutes):
#      bash shared/device/run.sh bash shared/device/check40.sh
#    gvr's conformance suite at full scale with a "previous" hint on every case (graphs, two streams, scratch
#    growth), test_split_hint.py at GPU sizes, every backend's test_graph_survives_scratch_growth and the reference's
#    hinted GPU class; then memcheck and racecheck of sanitize_cases.py gvr (41 cases, the hint modes in turn).
# 2. Within 30 s, the first timing of gvr beside the others and FlashInfer (carry .carry/flashinfer):
#      TAG=session40 GRIDS="decode" BENCH_ARGS="--hint" bash shared/device/bench.sh bash shared/device/final_b.sh
#    (a less similar previous step, if time allows: BENCH_ARGS="--hint 0.3"; its 128K rows list 10-13K candidates)
set -u
echo "=== gvr + hint GPU tests ($(date +%T))"
timeout 240 python3 -m pytest -q -p no:cacheprovider -n 4 packages/topk-gvr/tests \
  packages/topk-sgl-fused/tests/test_split_hint.py > "$OUT/pytest-gvr.log" 2>&1
echo "=== rc $?"; grep -E "passed|failed|error" "$OUT/pytest-gvr.log" | tail -3
echo "=== scratch growth, every backend; the reference with hints ($(date +%T))"
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu packages -k "scratch_growth or WithHint" \
  > "$OUT/pytest-growth.log" 2>&1
echo "=== rc $?"; grep -E "passed|failed|error" "$OUT/pytest-growth.log" | tail -3
for tool in memcheck racecheck; do
  timeout 170 compute-sanitizer --tool $tool --report-api-errors no python3 shared/device/sanitize_cases.py gvr \
    > "$OUT/san-gvr-$tool.log" 2>&1 &
done
wait
for tool in memcheck racecheck; do
  echo "=== $tool:"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAIL" "$OUT/san-gvr-$tool.log" | tail -4
  echo "    cases ok: $(grep -c '^ok' "$OUT/san-gvr-$tool.log")"
done
echo "=== done ($(date +%T))"
