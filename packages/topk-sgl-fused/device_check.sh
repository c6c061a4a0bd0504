#!/bin/bash
# One H200 call: GPU tests, sanitizers, startup times, benchmark. Logs under $OUT.
# Usage (from the repo root, via the device tool): bash shared/device/run.sh bash packages/topk-sgl-fused/device_check.sh
set -u
P=packages/topk-sgl-fused
OUT=${OUT:-/tmp/out}
step() { echo "=== $* ($(date +%T))"; }
step tests
timeout 110 python3 -m pytest -q --maxfail=5 -p no:cacheprovider $P/tests -k "not compile" --durations=8 2>&1 | tail -30
step memcheck
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 python3 $P/sanitize_quick.py 2>&1 | tail -6
step racecheck
timeout 40 compute-sanitizer --tool racecheck --error-exitcode 9 python3 $P/sanitize_quick.py 2>&1 | tail -6
step startup
export TOPK_CACHE_DIR=/tmp/topk-cache-startup
timeout 30 python3 $P/startup_quick.py; timeout 20 python3 $P/startup_quick.py
unset TOPK_CACHE_DIR
step bench
timeout 50 python3 $P/bench_quick.py ${BENCH_ARGS:-} 2>&1
step sweep
timeout 45 python3 $P/bench_quick.py --sweep --shapes ${SWEEP_SHAPES:-8x32768,128x131072,512x131072,4096x8192} 2>&1
step done
