#!/bin/bash
# One H200 call (<= 280 s), session 11 call 2, sgl_fused: the warp path's page table at the end in one block
# of all k slots ("late") beside session 10's late pass ("lateold") and the inline table, few short rows on the
# warp path (1x8K, 1x16K, 64x16K) beside the two-launch default ("old"), 2-bit search steps ("s2"); every
# input checked exact first (sgl10_bench.py; names in its docstring). Then the new GPU tests of test_warp.py.
#   bash shared/device/run.sh bash shared/device/sgl11.sh [bench_budget_s]
set -u
P=packages/topk-sgl-fused
export SGL_JSON=sgl11.json
export SGL_PLAN=${SGL_PLAN:-"1x8K:w8,w4,w2,w8s2,w8sel4,w8late,w8s2late;4096x8K:noold,w4,w4lateold,w4late,w4s2;\
1024x64K:noold,w8,w4lateold,w4late,w8late;128x128K:noold,w16,w16late;1x16K:w8,w16,w8s2;\
128x32K:noold,w16,w16late,w16s2,w16s2late;64x16K:w8,w16;512x128K:noold,w8,w8late;8x32K:w16,w8s2;32x128K:w16s2"}
echo "=== bench ($(date +%T)) SGL_PLAN=$SGL_PLAN"
timeout ${BENCH_TIMEOUT:-190} python3 shared/device/sgl10_bench.py ${1:-165} 2>&1 | grep -v "^RESULT"
echo "=== gpu tests ($(date +%T))"
i=0  # two shards in parallel: a cold machine's test time is first builds, one at a time per process
for k in "bracket_bits or fast_path_alone or select_bits" "late_page_table_random"; do
  TOPK_CACHE_DIR=/tmp/topk-cache-t$i timeout ${TESTS_TIMEOUT:-75} python3 -m pytest -q -p no:cacheprovider \
    -m "gpu or interpreter" $P/tests/test_warp.py -k "$k" --durations=4 > "$OUT/pytest-$i.log" 2>&1 &
  i=$((i + 1))
done
wait
for j in 0 1; do echo "--- shard $j"; tail -12 "$OUT/pytest-$j.log"; done
echo "=== done ($(date +%T))"
