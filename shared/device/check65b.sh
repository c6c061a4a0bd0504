#!/bin/bash
# Session 65, call 3 (carry .carry/dsl; any card; ~400 s): radix_filter 0.10.8 ships SHORT_F32_WIDE_8K (2048
# candidates for 397-2047 float32 rows of N <= 8K; call 1's find_ab: 1024x8K 24.4 -> 23.1 us on an H100).
#   1. find_ab: the shipped build against the old buffer (c4096) and a smaller one (c1024) on 1024x8K, 512x8K,
#      1024x4K k=1024; SHORT_F32's c2048 / c1024 on 128x8K and 32x8K (not shipped: rows <= 3 x SMs);
#   2. the same on int_ties and plateau rows at 1024x8K (what the overflow path costs with each buffer);
#   3. ncu at 1024x8K, 2048 against 4096 keys: why the smaller buffer is faster when the carveout is not it;
#   4. the GPU kit through the public API and every planned-variant test;
#   5. memcheck and racecheck of the three SHORT_F32_WIDE(_8K) sanitizer cases (since the session's review through
#      stages.sh's `sanitize`: logs <tool>-radix_filter-500x6000.log; call 3's were <tool>-rf.log).
#   TOPK_COMMIT=<hash> DEADLINE=480 bash shared/device/run.sh bash shared/device/check65b.sh
set -u
. "$(dirname "$0")/stages.sh"
ab() {  # ab KIND CELLS ALTS CAP
  local log="$OUT/ab-$1-$(echo $2 | tr , -).log"
  echo "=== find_ab FIND_AB=$3 FIND_KIND=$1 FIND_CELLS=$2 ($(date +%T))"
  FIND_AB=$3 FIND_KIND=$1 FIND_CELLS=$2 timeout $(left $4) python3 shared/device/find_ab.py > "$log" 2>&1
  echo "rc $?"; grep -E "^ *[0-9]+x" "$log"; grep -E "Error" "$log" | head -3
}
ab randn 15,14,18,13,17 c4096,c2048,c1024 120
ab int_ties 15 c4096,c1024 40
ab plateau 15 c4096,c1024 40
for cfg in "" "RF_CAND=4096"; do
  tag=$(echo "${cfg:-shipped}" | tr ' =' '__')
  echo "=== ncu 1024x8192 ${cfg:-shipped} ($(date +%T))"
  env $cfg timeout $(left 60) ncu --clock-control none --kernel-name regex:kernel --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    --metrics l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__cycles_active.avg \
    python3 shared/device/rf_profile.py 1024 8192 > "$OUT/ncu-1024x8K-$tag.log" 2>&1
  echo "rc $?"; grep -E "hit_rate|lts__t_sectors|inst_executed|bank_conflicts|cycles_active|Duration|Shared Memory Config|Achieved Occupancy|Block Limit|Theoretical Occ|exact|rror" "$OUT/ncu-1024x8K-$tag.log"
done
GPU_K="TestRadixFilter or planned or api_smoke or batch_shapes or plateau_fallback" \
  gpu_suites 200 packages/topk-radix-filter/tests/test_conformance.py
sanitize radix_filter "memcheck 500x6000,600x8000,450x12000" "racecheck 500x6000,600x8000,450x12000"
echo "=== done ($(date +%T))"
