#!/bin/bash
# Session 53, call 6 (no carry needed; carry .carry/dsl when a committed run follows on the same machine): sgl_fused
# 0.27.6's regions picks (float32 rows of 2-12 per SM short for their k: n < 48 k) on the GPU:
# 1. test_longest_first per transform (its shipped 300x64K and 900x64K picks are now these), beside
#    test_regions_picks_gpu_sizes, test_sample_configs_gpu_sizes' MID_LARGE configs and test_defer_sure;
# 2. memcheck of the five picks through the public calls (sanitize_lf52.py SET=53), racecheck of the 1024x64K ones;
# 3. 0.27.5's picks ("pickold53") against 0.27.6's ("pick") through the shipped picks, two rounds.
#   bash shared/device/run.sh bash shared/device/check53d.sh     (PARTS="tests" or "ab": one half)
set -u
if [[ " ${PARTS:-tests ab} " == *" tests "* ]]; then
bash shared/device/lf_tests.sh ${LF_S:-170} packages/topk-sgl-fused/tests/test_warp_gpu_sizes.py \
  packages/topk-sgl-fused/tests/test_warp.py -k "regions_picks or MID_LARGE or defer_sure"
S=shared/dev/sanitize_lf52.py
echo "=== memcheck ($(date +%T))"
SET=53 timeout ${MEM_S:-150} compute-sanitizer --tool memcheck --report-api-errors no python3 $S > "$OUT/memcheck53.log" 2>&1
echo "rc $?"; grep -E "exact|ERROR SUMMARY|Error|Traceback" "$OUT/memcheck53.log" | tail -8
echo "=== racecheck 1024x65536 ($(date +%T))"
SET=53 SHAPES=1024x65536 timeout ${RACE_S:-120} compute-sanitizer --tool racecheck --report-api-errors no python3 $S \
  > "$OUT/racecheck53.log" 2>&1
echo "rc $?"; grep -E "exact|RACECHECK SUMMARY|ERROR SUMMARY|hazard|Traceback" "$OUT/racecheck53.log" | tail -8
fi
if [[ " ${PARTS:-tests ab} " == *" ab "* ]]; then
P=shared/device/sgl_plan.sh
C="1024x64K 300x64K 512x128Kk4096 512x128K"
plan() { local out="" c; for c in $1; do out="$out;$c:noold,$2"; done; echo "${out#;}"; }
SGL_JSON=sgl53d-round1.json bash $P "round 1" sgl53d-round1.log ${R1_S:-150} "$(plan "$C" pickold53,pick)"
SGL_JSON=sgl53d-round2.json bash $P "round 2" sgl53d-round2.log ${R2_S:-120} "$(plan "$C" pick,pickold53)"
fi
echo "=== done ($(date +%T))"
