#!/bin/bash
# First call of the final warm pair (carry .carry/dsl): every package's GPU tests, then memcheck
# on the backends whose kernels changed this session (radix_filter, radix_cutlass).
#   bash shared/device/run.sh bash shared/device/final_a.sh
set -u
timeout 430 python3 -m pytest -q -m gpu -p no:cacheprovider packages tests 2>&1 | tail -5
for b in ${SANITIZE:-radix_filter radix_cutlass}; do
  timeout 100 compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize_cases.py $b \
    2>&1 | tail -12
done
