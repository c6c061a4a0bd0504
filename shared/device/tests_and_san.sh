#!/bin/bash
# GPU tests of one backend beside memcheck and racecheck of some sanitize_cases.py cases, then a summary of each.
#   SAN_CASES=4x3000,2x8192 [SAN_S=150] [TEST_S=170] bash shared/device/tests_and_san.sh BACKEND LOG PYTEST_ARGS...
# LOG names $OUT/pytest-LOG.log; PYTEST_ARGS go to `python3 -m pytest -q -p no:cacheprovider`.
# SAN_TOOLS: the sanitizer tools to run (default "memcheck racecheck"; empty: the tests alone).
set -u
backend=$1 log=$2
shift 2
tools=${SAN_TOOLS-memcheck racecheck}
for tool in $tools; do
  SAN_CASES=${SAN_CASES:-} timeout ${SAN_S:-150} compute-sanitizer --tool $tool --report-api-errors no \
    python3 shared/device/sanitize_cases.py "$backend" > "$OUT/san-$tool.log" 2>&1 &
done
timeout ${TEST_S:-170} python3 -m pytest -q -p no:cacheprovider "$@" > "$OUT/pytest-$log.log" 2>&1
echo "pytest rc $?"
grep -E "passed|failed|error" "$OUT/pytest-$log.log" | tail -2
grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-$log.log" | head -12
wait
for tool in $tools; do
  echo "=== $tool"; grep -E "^ok |FAIL|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/san-$tool.log" | tail -6
done
