#!/bin/bash
# Session 20's last call (Triton only, ~130 s): sgl_fused with the two-launch filter's bracket by bisection through
# test_split.py (interpreter-marked tests, run on the GPU) and the package's GPU suite, side by side.
#   bash shared/device/run.sh bash shared/device/check20.sh [seconds]
set -u
t=${1:-120}
timeout $t python3 -m pytest -q -p no:cacheprovider -n 6 packages/topk-sgl-fused/tests/test_split.py > "$OUT/split.log" 2>&1 &
pid=$!
timeout $t python3 -m pytest -q -p no:cacheprovider -n 6 -m gpu packages/topk-sgl-fused > "$OUT/gpu.log" 2>&1
wait $pid
echo "=== test_split.py"; grep -E "passed|failed|error" "$OUT/split.log" | tail -2; grep -E "^(FAILED|ERROR)|^E " "$OUT/split.log" | head
echo "=== GPU suite"; grep -E "passed|failed|error" "$OUT/gpu.log" | tail -2; grep -E "^(FAILED|ERROR)|^E " "$OUT/gpu.log" | head
echo "=== done ($(date +%T))"
