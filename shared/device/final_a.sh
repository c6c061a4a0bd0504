#!/bin/bash
# First call of the final warm pair (carry .carry/dsl): the GPU tests of the packages whose kernels
# changed this session (TESTS, default radix_filter and radix, plus tests/; TESTS_K: a pytest -k
# expression), then memcheck and racecheck on their sanitize_cases.py calls.
#   bash shared/device/run.sh bash shared/device/final_a.sh
set -u
# The whole pytest log goes to $OUT (a run cut by TEST_S still shows every result); a cold machine
# spends most of TEST_S on first builds (session 9: 480 radix_filter tests in 330 s cold, 333 in 15 s warm).
timeout ${TEST_S:-300} python3 -m pytest -q -m gpu -p no:cacheprovider ${TESTS:-packages/topk-radix-filter packages/topk-radix} \
  tests ${TESTS_K:+-k "$TESTS_K"} > "$OUT/pytest-final.log" 2>&1
grep -E "passed|failed|error" "$OUT/pytest-final.log" | tail -3; grep -c F "$OUT/pytest-final.log" | sed 's/^/lines with F: /'
for b in ${SANITIZE:-radix_filter radix}; do
  for tool in memcheck racecheck; do
    echo "=== $tool $b"
    timeout ${SAN_S:-70} compute-sanitizer --tool $tool --report-api-errors no python3 shared/device/sanitize_cases.py \
      $b 2>&1 | grep -v "^========= COMPUTE-SANITIZER$" | tail -12
  done
done
