#!/bin/bash
# Summarize the check scripts' sanitizer logs ($OUT/san-memcheck.log, $OUT/san-racecheck.log): per-case lines and the
# tools' summaries.
#   bash shared/device/san_summary.sh
for tool in memcheck racecheck; do
  echo "=== $tool"; grep -E "^ok |FAIL|refused|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/san-$tool.log" | tail -40
done
