#!/bin/bash
# Prepared in session 53 for shared/dev/patches/regions_16bit.patch (landed in session 54 as sgl_fused 0.27.7; no
# carry needed): its GPU checks and its A/B on one machine ("pickold54": the picks before 0.27.7).
# 1. test_16bit_picks_gpu_sizes (its shipped 512x131072 and 1024x65536 picks are the patch's), test_regions_16bit,
#    test_defer_sure; 2. memcheck of four 16-bit picks through the public calls (sanitize_lf52.py SET=54), racecheck
#    of the bfloat16 1024x64K ones; 3. the picks without the patch ("pickold54") against them ("pick"), two rounds.
#   bash shared/device/run.sh bash shared/device/check54.sh      (PARTS="tests" or "ab": one half; ~6 min in all)
set -u
. shared/device/sgl_pick_checks.sh
W=packages/topk-sgl-fused/tests
if [[ " ${PARTS:-tests ab} " == *" tests "* ]]; then
  echo "=== GPU tests ($(date +%T))"
  timeout ${TEST_S:-240} python3 -m pytest -q -p no:cacheprovider $W/test_warp_gpu_sizes.py $W/test_warp.py \
    -k "16bit or defer_sure" > "$OUT/pytest54.log" 2>&1
  echo "rc $?"; tail -3 "$OUT/pytest54.log"
  sgl_sanitize 54 1024x65536
fi
if [[ " ${PARTS:-tests ab} " == *" ab "* ]]; then
  sgl_ab 54 "1024x64Kbf16 300x64Kbf16 512x128Kbf16 1024x64Kfp16" pickold54
fi
echo "=== done ($(date +%T))"
