#!/bin/bash
# Session 15: the two final13.sh shards that ran out of their 300 s beside the sanitizers (radix_filter's
# "small_sample and not float32", radix + topk-core + repo-level), each split in two, nothing else beside them.
#   bash shared/device/run.sh bash shared/device/final15.sh [test_s]
set -u
i=0
for spec in "packages/topk-radix-filter|small_sample and bfloat16" "packages/topk-radix-filter|small_sample and float16 and not bfloat16" \
            "packages/topk-radix|" "packages/topk-core tests|"; do
  paths=${spec%%|*}; k=${spec#*|}
  TOPK_CACHE_DIR=/tmp/topk-cache-f$i timeout ${1:-300} python3 -m pytest -q -m gpu -p no:cacheprovider $paths \
    ${k:+-k "$k"} > "$OUT/pytest-f$i.log" 2>&1 &
  i=$((i + 1))
done
wait
for j in 0 1 2 3; do
  echo "=== part $j"
  grep -E "passed|failed|error" "$OUT/pytest-f$j.log" | tail -3
  grep -E "^(FAILED|ERROR)" "$OUT/pytest-f$j.log" | head -5
done
