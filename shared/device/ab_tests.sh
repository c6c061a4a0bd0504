#!/bin/bash
# One A/B call (session 32): sgl10_bench.py over $SGL_PLAN (every timed input checked exact), then test_warp.py's tests
# matching $TEST_K on the GPU, summarized; the log is $OUT/pytest-$LOG.log. The check32*.sh scripts set these.
tests=packages/topk-sgl-fused/tests
echo "=== A/B ($(date +%T))"
SGL_PLAN="$SGL_PLAN" timeout ${AB_S:-300} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-270}
echo "=== test_warp.py -k \"$TEST_K\" on the GPU ($(date +%T))"
timeout ${TEST_S:-150} python3 -m pytest -q -p no:cacheprovider -n 8 -rA $tests/test_warp.py -k "$TEST_K" \
  > "$OUT/pytest-$LOG.log" 2>&1
echo "rc $?"
bash shared/device/pytest_summary.sh "$OUT/pytest-$LOG.log"
echo "=== done ($(date +%T))"
