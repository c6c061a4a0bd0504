#!/bin/bash
# Session 13, after the committed runs (carry .carry/dsl): radix's relaxed_exit on by default, so radix's whole GPU
# suite again (two shards) and memcheck + racecheck of every sanitize_cases.py case radix runs, in parallel.
#   bash shared/device/run.sh bash shared/device/final13b.sh [test_s] [san_s]
set -u
san() {  # tool [cases]
  SAN_CASES=${2:-} timeout ${SAN_S:-150} compute-sanitizer --tool $1 --report-api-errors no \
    python3 shared/device/sanitize_cases.py radix 2>&1 | grep -v "^========= COMPUTE-SANITIZER$" | tail -24
}
export SAN_S=${2:-150}
san memcheck > "$OUT/san-mem.log" 2>&1 &
san racecheck "4x3000,4x9000,2x20000,3x700,1x40000,2x131072,4x70001,1x1048576,72x20000,40x70000" > "$OUT/san-race-a.log" 2>&1 &
san racecheck "300x17000,450x17000,2100x3000,6x12001,5x8191,2x600000,72x40000,80x30000,2x8192" > "$OUT/san-race-b.log" 2>&1 &
TOPK_CACHE_DIR=/tmp/topk-cache-r0 timeout ${1:-200} python3 -m pytest -q -m gpu -p no:cacheprovider \
  packages/topk-radix -k "TestRadix" > "$OUT/pytest-r0.log" 2>&1 &
TOPK_CACHE_DIR=/tmp/topk-cache-r1 timeout ${1:-200} python3 -m pytest -q -m gpu -p no:cacheprovider \
  packages/topk-radix -k "not TestRadix" > "$OUT/pytest-r1.log" 2>&1 &
wait
for j in 0 1; do echo "=== shard $j"; grep -E "passed|failed|error" "$OUT/pytest-r$j.log" | tail -2
  grep -E "^(FAILED|ERROR)" "$OUT/pytest-r$j.log" | head -5; done
for f in san-mem san-race-a san-race-b; do
  echo "=== $f"; grep -cE "^ok " "$OUT/$f.log" | sed 's/^/ok cases: /'; grep -E "FAIL|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/$f.log" | tail -3
done
