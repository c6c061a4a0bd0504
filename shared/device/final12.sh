#!/bin/bash
# Final GPU tests of session 12 (carry .carry/dsl): radix_filter's suite in four parallel shards, radix's and
# the repo-level GPU tests in a fifth, memcheck then racecheck on sanitize_cases.py beside (radix_filter and radix, in parallel).
#   bash shared/device/run.sh bash shared/device/final12.sh [test_s] [san_s]
set -u
san() {
  for tool in memcheck racecheck; do
    echo "=== $tool $1"
    timeout ${2:-100} compute-sanitizer --tool $tool --report-api-errors no python3 shared/device/sanitize_cases.py \
      $1 2>&1 | grep -v "^========= COMPUTE-SANITIZER$" | tail -24
  done
}
san radix_filter "${2:-100}" > "$OUT/sanitize-rf.log" 2>&1 &
san radix "${2:-100}" > "$OUT/sanitize-radix.log" 2>&1 &
i=0
for s in "small_sample and float32" "small_sample and not float32" "every_benchmarked" \
         "not small_sample and not every_benchmarked"; do
  TOPK_CACHE_DIR=/tmp/topk-cache-shard$i timeout ${1:-330} python3 -m pytest -q -m gpu -p no:cacheprovider \
    packages/topk-radix-filter -k "$s" > "$OUT/pytest-shard$i.log" 2>&1 &
  i=$((i + 1))
done
TOPK_CACHE_DIR=/tmp/topk-cache-shard$i timeout ${1:-330} python3 -m pytest -q -m gpu -p no:cacheprovider \
  packages/topk-radix tests > "$OUT/pytest-shard$i.log" 2>&1 &
wait
for j in 0 1 2 3 4; do
  echo "=== shard $j"
  grep -E "passed|failed|error" "$OUT/pytest-shard$j.log" | tail -3
  grep -E "^(FAILED|ERROR)" "$OUT/pytest-shard$j.log" | head -5
done
cat "$OUT/sanitize-rf.log" "$OUT/sanitize-radix.log"
