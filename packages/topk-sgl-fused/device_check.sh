#!/bin/bash
# One H200 call (<= 300 s): GPU tests, sanitizers, startup times, benchmark, config sweep.
# From the repo root, via the device tool (no carry needed: Triton only):
#   bash shared/device/run.sh bash packages/topk-sgl-fused/device_check.sh [tests|sanitize|startup|bench|sweep ...]
# With no argument every step runs, each under its own timeout; logs go to stdout (run.sh tees them to $OUT).
set -u
P=packages/topk-sgl-fused
steps=${*:-tests sanitize startup bench sweep}
step() { echo "=== $* ($(date +%T))"; }
for s in $steps; do
  case $s in
    tests)
      step tests
      timeout 100 python3 -m pytest -q --maxfail=5 -p no:cacheprovider $P/tests -k "not compile" --durations=8 2>&1 | tail -30 ;;
    sanitize)
      step memcheck
      timeout 30 compute-sanitizer --tool memcheck --error-exitcode 9 python3 $P/sanitize_quick.py 2>&1 | tail -6
      step racecheck
      timeout 30 compute-sanitizer --tool racecheck --error-exitcode 9 python3 $P/sanitize_quick.py 2>&1 | tail -6 ;;
    startup)
      step "startup (cold cache, then warm cache)"
      TOPK_CACHE_DIR=/tmp/topk-cache-startup-$$ TRITON_CACHE_DIR= bash -c \
        "unset TRITON_CACHE_DIR; timeout 15 python3 $P/startup_quick.py; timeout 10 python3 $P/startup_quick.py" ;;
    bench)
      step bench
      timeout 60 python3 $P/bench_quick.py ${BENCH_ARGS:-} 2>&1 ;;
    sweep)
      step sweep
      timeout 40 python3 $P/bench_quick.py --sweep --shapes ${SWEEP_SHAPES:-8x32768,128x131072,512x131072,4096x8192} 2>&1 ;;
  esac
done
step done
