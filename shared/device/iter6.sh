#!/bin/bash
# Dev only, one device call (carry .carry/dsl): radix_filter / radix_cutlass A/B (find_ab.py),
# then the GPU tests of the two backends built on cute_radix, then memcheck on radix_filter.
#   bash shared/device/run.sh bash shared/device/iter6.sh [ab_seconds] [test_seconds] [ab args]
set -u
timeout ${1:-200} python3 shared/device/find_ab.py ${3:-stages}
timeout ${2:-150} python3 -m pytest -q -m gpu -x -p no:cacheprovider packages/topk-radix-filter \
  packages/topk-radix-cutlass 2>&1 | tail -4
for b in ${SANITIZE:-radix_filter}; do
  timeout ${4:-90} compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize_cases.py \
    $b 2>&1 | tail -6
done
