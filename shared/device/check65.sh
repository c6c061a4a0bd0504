#!/bin/bash
# Prepared in session 64 (carry .carry/dsl; any card, ~400 s): the two-read path with a smaller candidate buffer.
# Why: session 37's ncu of SHORT_MANY at 4096x8K had L2 at 68% of peak, its busiest unit; pass 1 re-reads each row
# from L2. SHORT_MANY's 6 CTAs of 24 KB shared memory (2048-key buffer) leave ~92 KB of L1 for ~144 KB of rows in
# flight; a 512-key buffer (12 KB a CTA) would leave ~156 KB, so pass 1 may hit L1. Same registers (40), no spills.
#   1. SMALLCAND's GPU cases (test_conformance.py -k smallcand, 42);
#   2. ncu at 4096x8K, shipped then RF_CAND=512: L1 hit rate, L2 read sectors, DRAM bytes, time, smem carveout;
#   3. find_ab.py shipped / c512 / c1024 (512-thread cells: c1024 / c2048) on 4096x8K, 2048x8K, 3000x8K, 1024x8K,
#      512x8K (randn), then on 4096x8K with int_ties rows (buffers overflow more: the price of a small buffer).
#   TOPK_COMMIT=<hash> DEADLINE=540 bash shared/device/run.sh bash shared/device/check65.sh
set -u
. "$(dirname "$0")/stages.sh"
GPU_K="smallcand" gpu_suites 150 packages/topk-radix-filter/tests/test_conformance.py
for cand in "" 512; do
  echo "=== ncu 4096x8192 RF_CAND=${cand:-shipped} ($(date +%T))"
  RF_CAND=$cand timeout $(left 60) ncu --clock-control none --kernel-name regex:kernel --launch-skip 2 \
    --launch-count 1 --metrics l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,launch__shared_mem_config_size,sm__warps_active.avg.pct_of_peak_sustained_active \
    python3 shared/device/rf_profile.py 4096 8192 > "$OUT/ncu-c${cand:-shipped}.log" 2>&1
  echo "rc $?"; grep -E "hit_rate|lts__|dram__|duration|config_size|warps_active|exact|rror" "$OUT/ncu-c${cand:-shipped}.log"
done
for kind in randn int_ties; do
  cells=6,16,29,15,14; [ $kind = randn ] || cells=6
  echo "=== find_ab FIND_AB=c512,c1024,c2048 FIND_KIND=$kind FIND_CELLS=$cells ($(date +%T))"
  FIND_AB=c512,c1024,c2048 FIND_KIND=$kind FIND_CELLS=$cells timeout $(left 200) python3 shared/device/find_ab.py \
    > "$OUT/ab-smallcand-$kind.log" 2>&1
  echo "rc $?"; grep -E "^ *[0-9]+x" "$OUT/ab-smallcand-$kind.log"; grep -E "Error" "$OUT/ab-smallcand-$kind.log" | head -3
done
echo "=== done ($(date +%T))"
