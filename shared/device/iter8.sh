#!/bin/bash
# Dev only, one device call (carry .carry/dsl): radix_filter A/B (find_ab.py; FIND_AB selects the
# alternatives; STAMPS=1 adds clock stamps), then its GPU tests (TESTS: a pytest -k expression, default the variant tests),
# then racecheck/memcheck on sanitize_cases.py radix_filter when SANITIZE names the tools.
#   bash shared/device/run.sh bash shared/device/iter8.sh [ab_seconds] [test_seconds] [sanitize_seconds]
set -u
timeout ${1:-200} python3 shared/device/find_ab.py ${STAMPS:+stamps}
timeout ${2:-120} python3 -m pytest -q -m gpu -x -p no:cacheprovider packages/topk-radix-filter \
  -k "${TESTS:-every_benchmarked or small_sample}" 2>&1 | tail -4
for tool in ${SANITIZE:-}; do
  echo "=== $tool radix_filter"
  timeout ${3:-90} compute-sanitizer --tool $tool --report-api-errors no python3 shared/device/sanitize_cases.py \
    radix_filter 2>&1 | grep -v "^========= COMPUTE-SANITIZER$" | tail -12
done
