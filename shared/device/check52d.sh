#!/bin/bash
# Session 52, call 5: memcheck of the four ordered picks session 52 ships (shared/dev/sanitize_lf52.py), then
# racecheck of the 8K ones (one after the other, never beside each other):
#   bash shared/device/run.sh bash shared/device/check52d.sh
set -u
S=shared/dev/sanitize_lf52.py
echo "=== memcheck ($(date +%T))"
timeout ${MEM_S:-200} compute-sanitizer --tool memcheck --report-api-errors no python3 $S > "$OUT/memcheck.log" 2>&1
echo "rc $?"; grep -E "exact|ERROR SUMMARY|Error|Traceback" "$OUT/memcheck.log" | tail -8
echo "=== racecheck 1024x8K ($(date +%T))"
SHAPES=1024x8192 timeout ${RACE_S:-150} compute-sanitizer --tool racecheck --report-api-errors no python3 $S \
  > "$OUT/racecheck.log" 2>&1
echo "rc $?"; grep -E "exact|RACECHECK SUMMARY|ERROR SUMMARY|hazard|Traceback" "$OUT/racecheck.log" | tail -8
echo "=== done ($(date +%T))"
