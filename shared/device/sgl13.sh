#!/bin/bash
# One H200 call (~220 s), session 13, sgl_fused: the warp path's page table with its request found after the
# stream ("lazy": the page-table kernels' registers drop to the identity transform's, sm_90a: 8 warps 93 -> 80,
# 2 -> 3 programs per SM; 4 warps need the cap "m80" for 96 -> 80, 5 -> 6 programs) beside the shipped configs
# (4096x8K / 1024x64K page w4lateold, 512x128K w8lateold, 128x128K w16lateold, 1x8K w8late; none: w4 / w8 / w8 /
# w16 / w8), every rotating input checked exact first (sgl10_bench.py; names in its docstring). A "[built in this
# process]" note on a timed line means the warm-up's build was not reused (session 11's rebuilds). Then the new
# GPU tests of test_warp.py.
#   bash shared/device/run.sh bash shared/device/sgl13.sh [bench_budget_s]
set -u
P=packages/topk-sgl-fused
export SGL_JSON=sgl13.json
export SGL_PLAN=${SGL_PLAN:-"4096x8K:noold,w4,w4lateold,w4lateoldlazym80,w4latelazym80;\
1024x64K:noold,w8,w4lateold,w8lateold,w8lateoldlazy,w4lateoldlazym80;\
512x128K:noold,w8,w8lateold,w8lateoldlazy,w8latelazy;128x128K:noold,w16,w16lateold,w16lateoldlazy;\
1x8K:noold,w8,w8late,w8latelazy"}
echo "=== bench ($(date +%T)) SGL_PLAN=$SGL_PLAN"
timeout ${BENCH_TIMEOUT:-170} python3 shared/device/sgl10_bench.py ${1:-150} 2>&1 | grep -v "^RESULT"
echo "=== gpu tests ($(date +%T))"
i=0  # two shards in parallel: a cold machine's test time is first builds, one at a time per process
for k in "lazy_page_table and 37" "lazy_page_table and 300 or lazy_same_ptx"; do
  TOPK_CACHE_DIR=/tmp/topk-cache-t$i timeout ${TESTS_TIMEOUT:-60} python3 -m pytest -q -p no:cacheprovider \
    -m "gpu or interpreter" $P/tests/test_warp.py -k "$k" --durations=4 > "$OUT/pytest-$i.log" 2>&1 &
  i=$((i + 1))
done
wait
for j in 0 1; do echo "--- shard $j"; tail -12 "$OUT/pytest-$j.log"; done
echo "=== done ($(date +%T))"
