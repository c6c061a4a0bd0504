#!/bin/bash
# Session 30, no carry: after aligned windows (``aligned_windows``: the stream from the window's start rounded down
# to 16 bytes) and the row stride's unit (``launch.stride_unit``): memcheck over test_windows.py beside the window and
# page-stream GPU tests, then the A/B ("pick" / "picknoaw" / "picknosu" / "pickold30" = as before session 30) on
# windowed cells ("rs": starts 1-3 in a buffer of N + 4 (fp32) / N + 8 columns; "rs16": N + 16):
#   bash shared/device/run.sh bash shared/device/check30b.sh
tests=packages/topk-sgl-fused/tests
timeout ${SAN_S:-170} compute-sanitizer --tool memcheck --report-api-errors no python3 -m pytest -q \
  -p no:cacheprovider $tests/test_windows.py > "$OUT/san-windows.log" 2>&1 &
timeout ${TEST_S:-170} python3 -m pytest -q -p no:cacheprovider -n 8 -rA $tests/test_windows.py \
  $tests/test_warp.py $tests/test_split.py -k "windows or stride or page_stream or row_starts or lazy" \
  > "$OUT/pytest-30b.log" 2>&1
echo "=== GPU tests: rc $?"
grep -E "^(PASSED|FAILED|ERROR)" "$OUT/pytest-30b.log" | sed 's/ - .*//' | sort | uniq -c | sort -rn | head -40
grep -E "passed|failed" "$OUT/pytest-30b.log" | tail -1
grep -E "^E " "$OUT/pytest-30b.log" | head -8
wait
echo "=== memcheck"; grep -E "passed|failed|ERROR SUMMARY" "$OUT/san-windows.log" | tail -3
echo "=== A/B ($(date +%T))"
SGL_PLAN=${SGL_PLAN:-"16x128Krs:noold,pick,picknoaw,picknosu,pickold30;512x128Krs:noold,pick,picknoaw,picknosu,pickold30;\
4096x8Krs:noold,pick,pickold30;128x32Krs:noold,pick,pickold30;512x128Kbf16rs:noold,pick,picknoaw,pickold30;\
16x128Krs16:noold,pick,picknoaw;512x128Krs16:noold,pick,picknoaw;16x128K:noold,pick;512x128K:noold,pick;\
16x128Krs:noold,pick,pickold30;512x128Krs:noold,pick,pickold30"} \
  timeout ${AB_S:-230} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-200}
echo "=== done ($(date +%T))"
