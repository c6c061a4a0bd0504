#!/bin/bash
# One H200 call (<= 300 s) for the sgl_fused warp path (warp.py): timings beside the current
# default on issue 6's cells (each checked exact first), then the package's GPU tests.
#   bash shared/device/run.sh bash shared/device/sgl10.sh [bench_budget_s]
set -u
P=packages/topk-sgl-fused
echo "=== bench ($(date +%T))"
timeout ${BENCH_TIMEOUT:-190} python3 shared/device/sgl10_bench.py ${1:-140} 2>&1
echo "=== gpu tests ($(date +%T))"
timeout ${TESTS_TIMEOUT:-85} python3 -m pytest -q -p no:cacheprovider -m "gpu or interpreter" ${TESTS:-$P} --durations=6 2>&1 | tail -25
echo "=== done ($(date +%T))"
