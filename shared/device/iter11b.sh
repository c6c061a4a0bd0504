#!/bin/bash
# Dev only, one device call (carry .carry/dsl), session 11: radix_filter's 16-bit A/B (find_ab.py: the shipped
# variant against b0 = 0.6.0's filter and select, bc = the word filter alone, br = the one-digit select alone;
# FIND_CELLS below unless set; stamps of the shipped variant), then every radix_filter GPU test in three parallel
# shards and memcheck + racecheck on sanitize_cases.py radix_filter (final_par.sh).
#   bash shared/device/run.sh bash shared/device/iter11b.sh [ab_s]
set -u
echo "=== A/B ($(date +%T))"
FIND_AB=${FIND_AB:-b0,bc,br} FIND_CELLS=${FIND_CELLS:-8,22,23,24,25,26} STAMP_ALTS=b0 \
  timeout ${1:-120} python3 shared/device/find_ab.py stamps
echo "=== tests ($(date +%T))"
SHARDS="small_sample;every_benchmarked;not small_sample and not every_benchmarked" TESTS=packages/topk-radix-filter \
  TEST_S=${TEST_S:-300} SANITIZE=radix_filter SAN_S=${SAN_S:-90} bash shared/device/final_par.sh
echo "=== done ($(date +%T))"
