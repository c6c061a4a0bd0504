#!/bin/bash
# One H200 call (<= 300 s): GPU tests, sanitizers, startup times, benchmark.
# From the repo root, via the device tool (no carry needed: Triton only):
#   bash shared/device/run.sh bash packages/topk-sgl-fused/device_check.sh [tests|sanitize|startup|bench ...]
# With no argument every step runs, each under its own timeout; logs go to stdout (run.sh tees them to $OUT).
set -u
P=packages/topk-sgl-fused
steps=${*:-tests sanitize startup bench}
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
      timeout 60 python3 -m topk_core bench --grid ${BENCH_GRID:-dsa} --only sgl_fused sgl_fused:page sgl_fused:ragged torch.topk --sgl --no-save 2>&1 ;;
  esac
done
step done
