#!/bin/bash
# Session 31, no carry: test_windows.py on the GPU (the windowed kernels after session 30's review refactor, d4928a5),
# then the A/B of 16-bit rows on float32's picks ("pick16w": the warp path, "pick16s" / "pick16sh": the two-launch
# path's float32 features with / without the interpolated select; "pick" as shipped):
#   bash shared/device/run.sh bash shared/device/check31b.sh
tests=packages/topk-sgl-fused/tests
timeout ${TEST_S:-150} python3 -m pytest -q -p no:cacheprovider -n 8 -rA $tests/test_windows.py > "$OUT/pytest-31b.log" 2>&1
echo "=== test_windows.py on the GPU: rc $?"
bash shared/device/pytest_summary.sh "$OUT/pytest-31b.log"
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"128x128Kbf16:noold,pick,pick16w,pick16s,pick16sh;512x128Kbf16:noold,pick,pick16w,pick16s;\
4096x8Kbf16:noold,pick,pick16w;1024x64Kbf16:noold,pick,pick16w,pick16s;128x32Kbf16:noold,pick,pick16w,pick16s,pick16sh;\
32x128Kbf16:noold,pick,pick16s,pick16sh;8x32Kbf16:noold,pick,pick16s,pick16sh;1x128Kbf16:noold,pick,pick16s,pick16sh;\
128x128Kfp16:noold,pick,pick16w;128x128K:noold,pick"} \
  timeout ${AB_S:-300} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-270}
echo "=== done ($(date +%T))"
