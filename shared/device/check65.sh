#!/bin/bash
# Prepared in session 64 (carry .carry/dsl; any card; ~560 s): the two-read path with a smaller candidate buffer.
# Why: session 37's ncu of SHORT_MANY at 4096x8K had L2 at 68% of peak, its busiest unit; pass 1 re-reads each row
# from L2. SHORT_MANY's 6 CTAs of 24 KB shared memory (2048-key buffer) leave ~92 KB of L1 for ~144 KB of rows in
# flight; a 512-key buffer (12 KB a CTA) could leave ~156 KB, so pass 1 may hit L1. Same registers (40), no spills.
# SHORT_F32_WIDE (min_ctas) names a 100% carveout (L1 ~28 KB), so its `v<p>` builds name the smallest that fits.
# In order of what decides (each step cut to what is left of DEADLINE):
#   1. find_ab.py on 4096x8K (SHORT_MANY) and 1024x8K (SHORT_F32_WIDE): shipped, c<n> (quarter / half the buffer,
#      the driver's carveout), c<n>v<p> (a named carveout: 43% = 100 KB, 57% = 132 KB; c4096v86: SHORT_F32_WIDE's
#      own buffer with 196 KB, not 228);
#   2. ncu at 4096x8K: shipped, RF_CAND=512, RF_CAND=512 RF_CARVE=43 (L1 hit rate, L2 read sectors, DRAM bytes,
#      time, the carveout the driver configured, warps active);
#   3. the same A/B on 2048x8K, 3000x8K (SHORT_MANY_LF) and 512x8K, then 4096x8K on int_ties rows (buffers overflow
#      more: the price of a small buffer);
#   4. SMALLCAND's GPU cases (test_conformance.py -k smallcand, 42): needed before anything ships.
#   TOPK_COMMIT=<hash> DEADLINE=560 bash shared/device/run.sh bash shared/device/check65.sh
set -u
. "$(dirname "$0")/stages.sh"
ALTS=c512,c1024,c2048,c512v43,c1024v57,c1024v43,c2048v57,c4096v86
ab() {  # ab KIND CELLS CAP
  echo "=== find_ab FIND_AB=$ALTS FIND_KIND=$1 FIND_CELLS=$2 ($(date +%T))"
  FIND_AB=$ALTS FIND_KIND=$1 FIND_CELLS=$2 timeout $(left $3) python3 shared/device/find_ab.py \
    > "$OUT/ab-smallcand-$1-$(echo $2 | tr , -).log" 2>&1
  echo "rc $?"; grep -E "^ *[0-9]+x" "$OUT/ab-smallcand-$1-$(echo $2 | tr , -).log"
  grep -E "Error" "$OUT/ab-smallcand-$1-$(echo $2 | tr , -).log" | head -3
}
ab randn 6,15 240
for cfg in "" "RF_CAND=512" "RF_CAND=512 RF_CARVE=43"; do
  tag=$(echo "${cfg:-shipped}" | tr ' =' '__')
  echo "=== ncu 4096x8192 ${cfg:-shipped} ($(date +%T))"
  env $cfg timeout $(left 70) ncu --clock-control none --kernel-name regex:kernel --launch-skip 2 \
    --launch-count 1 --metrics l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,launch__shared_mem_config_size,sm__warps_active.avg.pct_of_peak_sustained_active \
    python3 shared/device/rf_profile.py 4096 8192 > "$OUT/ncu-$tag.log" 2>&1
  echo "rc $?"; grep -E "hit_rate|lts__|dram__|duration|config_size|warps_active|exact|rror" "$OUT/ncu-$tag.log"
done
ab randn 16,29,14 150
ab int_ties 6 90
GPU_K="smallcand" gpu_suites 150 packages/topk-radix-filter/tests/test_conformance.py
echo "=== done ($(date +%T))"
