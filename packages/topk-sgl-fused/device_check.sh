#!/bin/bash
# One H200 call (<= 300 s): GPU tests, sanitizers, startup times, benchmark.
# From the repo root, via the device tool (no carry needed: Triton only):
#   bash shared/device/run.sh bash packages/topk-sgl-fused/device_check.sh [tests|sanitize|startup|bench ...]
# With no argument every step but variants/gputests runs, each under its own timeout; logs go to stdout
# (run.sh tees them to $OUT). Fast-path tuning: `... device_check.sh variants gputests` (~200 s).
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
    variants)
      step "variants (fast-path launch configs on the issue cells)"
      timeout ${VARIANTS_TIMEOUT:-110} python3 $P/bench_variants.py ${VARIANTS_BUDGET:-95} 2>&1 | tee -a $OUT/variants.log ;;
    gputests)
      step "gpu tests"
      timeout ${TESTS_TIMEOUT:-80} python3 -m pytest -q -x -m gpu -p no:cacheprovider $P --durations=5 2>&1 | tail -25 | tee -a $OUT/tests.log ;;
    bench)
      step bench
      timeout 60 python3 -m topk_core bench --grid ${BENCH_GRID:-dsa} --only sgl_fused sgl_fused:page sgl_fused:ragged torch.topk --sgl --no-save 2>&1 ;;
  esac
done
step done
