#!/bin/bash
# Dev only, one device call (carry .carry/dsl), session 11: radix_filter's 16-bit word filter with predicated
# stores and fp16's half2 compare (find_ab.py: shipped vs b0 = 0.6.0's 16-bit path, p0 = the word filter's
# branch per kept key, f0 = fp16's order-key filter), then the 16-bit GPU tests in three parallel shards with
# memcheck and racecheck on sanitize_cases.py radix_filter beside them.
#   bash shared/device/run.sh bash shared/device/iter11c.sh [ab_s]
set -u
echo "=== A/B ($(date +%T))"
FIND_AB=${FIND_AB:-b0,p0,f0} FIND_CELLS=${FIND_CELLS:-8,25,23,26,22,24} timeout ${1:-90} python3 shared/device/find_ab.py
echo "=== tests ($(date +%T))"
SHARDS="small_sample and bfloat16;small_sample and float16 and not bfloat16;not small_sample and not every_benchmarked and not float32" \
  TESTS=packages/topk-radix-filter TEST_S=${TEST_S:-200} SANITIZE=radix_filter SAN_PAR=1 SAN_S=${SAN_S:-100} SAN_TAIL=20 \
  bash shared/device/final_par.sh
echo "=== done ($(date +%T))"
