#!/bin/bash
# Prepared in session 30 for the next session's first call (no carry needed): memcheck and racecheck of sgl_fused's
# windowed cases alone (sanitize_cases.py WINDOW_CASES; session 30's final run stopped at its 170 s limit before
# 16x131072 and bf16 64x32768), with room to finish and print their summaries:
#   bash shared/device/run.sh bash shared/device/check31.sh
for tool in memcheck racecheck; do
  SAN_CASES=windows timeout ${SAN_S:-400} compute-sanitizer --tool $tool --report-api-errors no \
    python3 shared/device/sanitize_cases.py sgl_fused > "$OUT/san-$tool.log" 2>&1 &
done
wait
for tool in memcheck racecheck; do
  echo "=== $tool"; grep -E "^ok |FAIL|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/san-$tool.log" | tail -18
done
