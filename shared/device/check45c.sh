#!/bin/bash
# Session 45, last call (carry .carry/dsl): radix_filter's shipped plan (SHORT_MANY_LF up to 24 rows per SM, the plain
# SHORT_MANY past it) through the API on the GPU, then as far as time goes the worst case never timed before:
# rows with a 0.0 plateau across every row's k-th value (every exact fallback), radix_filter and auto beside masked
# torch.topk (no FlashInfer in this call).
#   bash shared/device/run.sh bash shared/device/check45c.sh
set -u
echo "=== radix_filter plan tests ($(date +%T))"
timeout 100 python3 -m pytest -q -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py \
  -k "planned_longest or scratch_growth or batch_shapes" > "$OUT/pytest-rf.log" 2>&1
echo "=== rc $?"; tail -3 "$OUT/pytest-rf.log"
echo "=== plateau bench ($(date +%T))"
timeout ${BENCH_S:-170} python3 -m topk_core bench --grid dsa --kind plateau --only radix_filter torch.topk \
  --replays 5 --out "$OUT" --tag plateau45 2>&1 | tr '\r' '\n' | grep -v "topk bench: *[0-9]*%" | tail -25
echo "=== done ($(date +%T))"
