#!/bin/bash
# Session 35: the ~one-row-per-SM warp picks on 32 warps ("pickw32[a1][allc]"), two rounds on 128x32K; the shipped
# first_chunk_regs on WARP_MANY_SMALL[_PAGE] against the re-read ("pickk0off") on 2048-4096 rows of 8K-16K:
#   bash shared/device/run.sh bash shared/device/check35b.sh
export SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickw32,pickw32a1,pickw32a1allc;128x128K:noold,pick,pickw32,pickw32a1;\
4096x8K:noold,pick,pickk0off;2048x8K:noold,pick,pickk0off;4096x16K:noold,pick,pickk0off;\
128x32K:noold,pick,pickw32,pickw32a1;4096x8K:noold,pick,pickk0off"}
echo "=== A/B ($(date +%T))"
timeout 230 python3 shared/device/sgl10_bench.py 200
echo "=== test_first_chunk_regs on the GPU ($(date +%T))"
timeout 100 python3 -m pytest -q -p no:cacheprovider -n 4 -rA packages/topk-sgl-fused/tests/test_warp.py \
  -k "first_chunk_regs" > "$OUT/pytest-35b.log" 2>&1
echo "rc $?"
bash shared/device/pytest_summary.sh "$OUT/pytest-35b.log"
echo "=== done ($(date +%T))"
