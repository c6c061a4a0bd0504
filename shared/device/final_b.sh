#!/bin/bash
# Second call of the final warm pair (carry .carry/dsl; FlashInfer left by the first call):
# radix's GPU tests, the committed benchmark tables, the other GPU tests, memcheck on radix.
#   bash shared/device/bench.sh bash shared/device/final_b.sh
set -u
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix 2>&1 | tail -4
python3 -m topk_core bench --grid dsa --sgl --out "$OUT" --replays 10 --tag session3 2>&1 | tail -40
python3 -m topk_core bench --grid decode --out "$OUT" --replays 10 --tag session3 2>&1 | tail -25
timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider packages tests --ignore=packages/topk-radix \
  --ignore=packages/topk-sgl-fused 2>&1 | tail -4
timeout 120 compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize_cases.py radix \
  2>&1 | tail -12
