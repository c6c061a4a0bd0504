#!/bin/bash
# First call of the final warm pair (carry .carry/dsl): the GPU tests of the backends that
# changed (sgl_fused, radix), then memcheck on both.
#   bash shared/device/run.sh bash shared/device/final_a.sh
set -u
timeout 180 python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-sgl-fused 2>&1 | tail -4
timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix 2>&1 | tail -4
for b in sgl_fused radix; do
  timeout 120 compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize_cases.py $b \
    2>&1 | tail -12
done
