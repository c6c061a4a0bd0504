#!/bin/bash
# Session 46, first call (carry .carry/dsl; the committed run follows on the same warm machine): radix_filter's
# shipped plan through the API (SHORT_MANY_LF to 24 rows per SM, the kit's scratch-growth test at this backend's
# shapes), the A/B of SHORT_MANY_LF's cutoff (3000x8K, 2048x8K, 4096x8K with and without the order), then the first
# `--kind plateau` bench (a 0.0 plateau across every row's k-th value: every exact fallback) beside torch.topk.
#   bash shared/device/run.sh bash shared/device/check46.sh
set -u
echo "=== radix_filter plan tests ($(date +%T))"
timeout ${TEST_S:-120} python3 -m pytest -q -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py \
  -k "planned_longest or scratch_growth or batch_shapes" > "$OUT/pytest-rf.log" 2>&1
echo "=== rc $?"; tail -3 "$OUT/pytest-rf.log"
echo "=== cutoff A/B ($(date +%T))"
FIND_AB=nolf FIND_CELLS=29,16,6 timeout ${AB_S:-200} python3 shared/device/find_ab.py 2>&1 | tail -30
echo "=== plateau bench ($(date +%T))"
timeout ${BENCH_S:-150} python3 -m topk_core bench --grid dsa --kind plateau --only radix_filter torch.topk \
  --replays 5 --out "$OUT" --tag plateau46 2>&1 | tr '\r' '\n' | grep -v "topk bench: *[0-9]*%" | tail -25
echo "=== done ($(date +%T))"
