#!/bin/bash
# Final GPU tests of session 13 (carry .carry/dsl), all in parallel on one machine:
#   pytest: radix_filter's suite in four shards, radix's + topk-core's (since session 14) + the repo-level tests in a fifth, sgl_fused's new lazy
#   page-table tests in a sixth (its shipped kernels are unchanged this session);
#   compute-sanitizer: memcheck of radix_filter and radix (every case of sanitize_cases.py), racecheck of both
#   split in two halves each (session 12's 90 s racecheck reached 16 and 12 of 19 cases; 21 cases since session 14).
#   bash shared/device/run.sh bash shared/device/final13.sh [test_s] [san_s]
# SGL_K="" (session 14) runs sgl_fused's whole GPU suite in the sixth shard instead of the lazy tests.
set -u
A="4x3000,4x9000,2x20000,3x700,1x40000,2x131072,4x70001,1x1048576,72x20000,40x70000"
B="300x17000,450x17000,2100x3000,6x12001,5x8191,2x600000,72x40000,80x30000,2x8192,500x6000,300x20000"
san() {  # tool backend [cases]
  SAN_CASES=${3:-} timeout ${SAN_S:-200} compute-sanitizer --tool $1 --report-api-errors no \
    python3 shared/device/sanitize_cases.py $2 2>&1 | grep -v "^========= COMPUTE-SANITIZER$" | tail -24
}
export SAN_S=${2:-200}
san memcheck radix_filter > "$OUT/san-mem-rf.log" 2>&1 &
san memcheck radix > "$OUT/san-mem-radix.log" 2>&1 &
san racecheck radix_filter $A > "$OUT/san-race-rf-a.log" 2>&1 &
san racecheck radix_filter $B > "$OUT/san-race-rf-b.log" 2>&1 &
san racecheck radix $A > "$OUT/san-race-radix-a.log" 2>&1 &
san racecheck radix "$B,32x131072" > "$OUT/san-race-radix-b.log" 2>&1 &  # + radix's side rows (session 15)
i=0
for s in "small_sample and float32" "small_sample and not float32" "every_benchmarked" \
         "not small_sample and not every_benchmarked"; do
  TOPK_CACHE_DIR=/tmp/topk-cache-shard$i timeout ${1:-300} python3 -m pytest -q -m gpu -p no:cacheprovider \
    packages/topk-radix-filter -k "$s" > "$OUT/pytest-shard$i.log" 2>&1 &
  i=$((i + 1))
done
TOPK_CACHE_DIR=/tmp/topk-cache-shard4 timeout ${1:-300} python3 -m pytest -q -m gpu -p no:cacheprovider \
  packages/topk-radix packages/topk-core tests > "$OUT/pytest-shard4.log" 2>&1 &
if [ -n "${SGL_K-lazy}" ]; then
  TOPK_CACHE_DIR=/tmp/topk-cache-shard5 timeout ${1:-300} python3 -m pytest -q -m "gpu or interpreter" \
    -p no:cacheprovider packages/topk-sgl-fused/tests/test_warp.py -k "${SGL_K-lazy}" > "$OUT/pytest-shard5.log" 2>&1 &
else
  TOPK_CACHE_DIR=/tmp/topk-cache-shard5 timeout ${1:-300} python3 -m pytest -q -m gpu -p no:cacheprovider \
    packages/topk-sgl-fused > "$OUT/pytest-shard5.log" 2>&1 &
fi
wait
for j in 0 1 2 3 4 5; do
  echo "=== shard $j"
  grep -E "passed|failed|error" "$OUT/pytest-shard$j.log" | tail -3
  grep -E "^(FAILED|ERROR)" "$OUT/pytest-shard$j.log" | head -5
done
for f in san-mem-rf san-mem-radix san-race-rf-a san-race-rf-b san-race-radix-a san-race-radix-b; do
  echo "=== $f"; grep -cE "^ok " "$OUT/$f.log" | sed 's/^/ok cases: /'; grep -E "FAIL|ERROR SUMMARY|RACECHECK SUMMARY|hazard" "$OUT/$f.log" | tail -4
done
