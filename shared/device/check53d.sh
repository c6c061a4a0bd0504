#!/bin/bash
# (Its sanitizer and A/B steps moved into shared/device/sgl_pick_checks.sh after it ran; the same commands.)
# Session 53, call 6 (no carry needed; carry .carry/dsl when a committed run follows on the same machine): sgl_fused
# 0.27.6's regions picks (float32 rows of 2-12 per SM short for their k: n < 48 k) on the GPU:
# 1. test_longest_first per transform (its shipped 300x64K and 900x64K picks are now these), beside
#    test_regions_picks_gpu_sizes, test_sample_configs_gpu_sizes' MID_LARGE configs and test_defer_sure;
# 2. memcheck of the five picks through the public calls (sanitize_lf52.py SET=53), racecheck of the 1024x64K ones;
# 3. 0.27.5's picks ("pickold53") against 0.27.6's ("pick") through the shipped picks, two rounds.
#   bash shared/device/run.sh bash shared/device/check53d.sh     (PARTS="tests" or "ab": one half)
set -u
. shared/device/sgl_pick_checks.sh
if [[ " ${PARTS:-tests ab} " == *" tests "* ]]; then
bash shared/device/lf_tests.sh ${LF_S:-170} packages/topk-sgl-fused/tests/test_warp_gpu_sizes.py \
  packages/topk-sgl-fused/tests/test_warp.py -k "regions_picks or MID_LARGE or defer_sure"
  sgl_sanitize 53 1024x65536
fi
if [[ " ${PARTS:-tests ab} " == *" ab "* ]]; then
  sgl_ab 53d "1024x64K 300x64K 512x128Kk4096 512x128K" pickold53
fi
echo "=== done ($(date +%T))"
